import type { Logger, LogLevel } from '../core/logger.js';
import { describeIssue, type RuleId, type SchemaIssue } from './schema-issue.js';

/** Who offers a tool: its provider and the app the provider belongs to. */
export interface ToolOrigin {
  readonly provider?: string | undefined;
  readonly app?: string | undefined;
}

/** `app "a" (provider "p")`, `app "a"` or `provider "p"`, for log lines. */
export function describeOrigin(origin: ToolOrigin): string {
  const { app, provider } = origin;
  if (app && provider && app !== provider)
    return `app ${JSON.stringify(app)} (provider ${JSON.stringify(provider)})`;
  if (app) return `app ${JSON.stringify(app)}`;
  if (provider) return `provider ${JSON.stringify(provider)}`;
  return 'a provider with no name';
}

/** What a tool's author changes so a defect of each rule goes away. */
const ADVICE: Record<RuleId, string> = {
  root_not_object: 'make the parameters one object schema',
  root_combinator: 'declare one object at the top level instead of alternatives',
  node_not_schema: 'make every schema an object',
  type_missing: 'give every value a `type`',
  type_invalid: 'give every node one type (and take null by leaving the argument out)',
  array_items_missing: 'declare the schema of every list’s `items`',
  object_properties_missing: 'declare every object’s properties, or take free-form values as JSON text',
  required_invalid: 'list only declared properties in `required`',
  enum_invalid: 'keep `enum` to non-empty, distinct strings on string values',
  format_unsupported: 'drop `format` other than date-time',
  keyword_unsupported:
    'drop keywords outside the portable profile ($ref, $defs, const, oneOf, additionalProperties …)',
  keyword_misplaced: 'put each keyword on the type it applies to',
  property_key_invalid: 'name every argument with letters, digits, `_`, `.` and `-` only, at most 64 of them',
  name_missing: 'name the tool',
  name_collision: 'give the tool a name no other tool travels under',
  name_reserved: 'rename the tool (the runtime has its own tool by that name)',
};

const SHOWN_ISSUES = 6;

/** The defects in plain words: the first few, then how many more. */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  const shown = issues.slice(0, SHOWN_ISSUES).map(describeIssue);
  const more = issues.length > SHOWN_ISSUES ? `; and ${issues.length - SHOWN_ISSUES} more` : '';
  return `${shown.join('; ')}${more}`;
}

/** What the author should change, one phrase per rule broken. */
export function adviceFor(issues: readonly SchemaIssue[]): string {
  const rules = [...new Set(issues.map((i) => i.rule))];
  return rules.map((r) => ADVICE[r]).join('; ');
}

/**
 * Logs `message` about one tool once per process (per logger), keyed by what was said. These are the
 * details: `info` (a command prints them under --verbose), `debug` for a change no model would see;
 * the seam's one `warn` line per run counts them (`seamSummaryLine`).
 */
export function logOnce(
  logger: Logger,
  origin: ToolOrigin,
  tool: string,
  key: string,
  message: string,
  fields: Record<string, unknown>,
  level: LogLevel = 'info',
): void {
  logger.once(`seam\u0000${origin.provider ?? ''}\u0000${origin.app ?? ''}\u0000${tool}\u0000${key}`, {
    level,
    scope: 'seam',
    message,
    fields: { app: origin.app, provider: origin.provider, tool, ...fields },
  });
}
