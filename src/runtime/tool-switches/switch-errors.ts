import { ToolseamError } from '../../core/errors.js';

/** The configuration key that fixes a tool off: the owner's policy, which no stored switch changes. */
export type FixedBy = 'disabledTools' | 'denyList';

/** A switch named a tool nobody serves, has quarantined or has switched before. */
export class UnknownToolError extends ToolseamError {
  constructor(
    readonly tool: string,
    /** The known name it was probably meant to be, if any. */
    readonly suggestion: string | undefined,
  ) {
    const meant = suggestion === undefined ? '' : ` Did you mean ${JSON.stringify(suggestion)}?`;
    super(
      'unknown_tool',
      `There is no tool named ${JSON.stringify(tool)}, so nothing was switched.${meant} ` +
        'The Tools page and `toolseam tools` list every tool by its real name.',
    );
  }
}

/** A switch named a tool the configuration keeps off (its `disabledTools` or `denyList`). */
export class FixedByConfigError extends ToolseamError {
  constructor(
    readonly tool: string,
    readonly fixedBy: FixedBy,
    /** The deny-list pattern that covers the tool (for `denyList`). */
    readonly rule?: string,
    /** The switch asked for: on (the default) or off. */
    readonly on = true,
  ) {
    const where =
      fixedBy === 'disabledTools'
        ? `is switched off by "disabledTools" in toolseam's configuration`
        : `is refused by the deny-list rule ${JSON.stringify(rule ?? tool)} ("denyList") in toolseam's configuration`;
    const remedy =
      fixedBy === 'disabledTools'
        ? 'take it out of "disabledTools"'
        : 'remove or narrow that rule in "denyList"';
    const next = on
      ? `To offer it, ${remedy} in the config file and start toolseam again.`
      : 'It is off already, and stays off whatever a switch says.';
    super(
      'fixed_by_config',
      `${JSON.stringify(tool)} ${where}: that is the owner's fixed policy, which a switch cannot change. ${next}`,
    );
  }
}
