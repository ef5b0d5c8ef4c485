import type { ToolContext } from '../../core/tool.js';
import { type Checked, ready, refuse } from './checked-work.js';
import { configEdit } from './config-edits.js';
import { CREDENTIAL_HINT, credentialPlace } from './credential-paths.js';
import type { DeniedPattern } from './denied-commands.js';
import { type FileScope, realRoots } from './file-scope.js';
import { schedulerUse } from './scheduler-commands.js';
import { type FilledCommand, fillSecrets, placeholderNames } from './secret-placeholders.js';
import type { ShellConfinement } from './shell-run.js';

/** What the shell is set up with. */
export interface ShellSetup {
  readonly scope: FileScope;
  /** Stored secrets, name → value. */
  readonly secrets: ReadonlyMap<string, string>;
  readonly denied: readonly DeniedPattern[];
  /** How commands run: in which sandbox, with what network, environment and extra reads. */
  readonly confinement: ShellConfinement;
}

/** A command cleared to run: where, in which workspace folders, and with its secrets filled in. */
export interface ClearedCommand {
  readonly cwd: string;
  /** The workspace folders, really resolved (the first is `cwd`). */
  readonly roots: readonly string[];
  readonly filled: FilledCommand;
}

function unknownSecret(names: readonly string[], secrets: ReadonlyMap<string, string>) {
  const missing = names.filter((name) => !secrets.has(name));
  if (missing.length === 0) return undefined;
  const shown = missing.map((name) => `{{secret:${name}}}`).join(', ');
  const hints: string[] = [];
  for (const name of missing) {
    const close = [...secrets.keys()].find((known) => known.toLowerCase() === name.toLowerCase());
    if (close !== undefined) hints.push(`Did you mean {{secret:${close}}}? Secret names are case-sensitive.`);
  }
  hints.push(
    secrets.size > 0
      ? `The stored secrets are: ${[...secrets.keys()].join(', ')}.`
      : 'No secrets are stored at all.',
    "The person stores secrets in toolseam's settings; never ask them to paste one into the chat.",
  );
  const which =
    missing.length === 1 ? 'no stored secret has that name' : 'no stored secrets have those names';
  return refuse('unknown_secret', `${shown}: ${which}, so nothing was run.`, hints, { secrets: missing });
}

/**
 * Everything the bash tool refuses before running a command, in order: a placeholder no stored secret fills,
 * a credential place, a denied pattern, a change to toolseam's own config, a system-scheduler write; then
 * where it runs (the first workspace folder).
 */
export async function checkCommand(
  command: string,
  ctx: ToolContext,
  setup: ShellSetup,
): Promise<Checked<ClearedCommand>> {
  const secret = unknownSecret(placeholderNames(command), setup.secrets);
  if (secret !== undefined) return secret;
  // Also with quotes and backslashes taken out: `cat .e""nv` reads the same file as `cat .env`.
  const place = credentialPlace(command) ?? credentialPlace(command.replace(/["'\\]/g, ''));
  if (place !== undefined) {
    return refuse(
      'credential_path',
      `The command reaches ${place.what} (${place.found}), where credentials are kept; the shell never reads or changes those. Nothing was run.`,
      [CREDENTIAL_HINT],
      { what: place.what },
    );
  }
  const denied = setup.denied.find((pattern) => pattern.matches(command));
  if (denied !== undefined) {
    const why = denied.configured
      ? `matches the denied pattern ${denied.what} in toolseam's configuration`
      : `${denied.what}, which the shell never does`;
    return refuse(
      'denied_pattern',
      `The command ${why}. Nothing was run.`,
      ['If it really must run, the person runs it themselves.'],
      { pattern: denied.what },
    );
  }
  const rooted = await realRoots(ctx, setup.scope);
  if ('refusal' in rooted) return rooted;
  const cwd = rooted.ready[0] as string;
  const config = await configEdit(command, cwd, setup.scope.configPaths);
  if (config !== undefined) {
    return refuse(
      'owner_only',
      `The command would change ${config}, toolseam's own configuration. Only the person changes it, outside the chat. Nothing was run.`,
      ['Tell the person which change you suggest; they make it themselves.'],
      { path: config },
    );
  }
  const scheduler = schedulerUse(command);
  if (scheduler !== undefined) {
    return refuse(
      'scheduler',
      `The command would hand work to the system scheduler (${scheduler}), where it would run outside toolseam with nobody reviewing or able to stop it. Nothing was run.`,
      [
        'For work to do later, record it with task_create so the person sees it, or give them the command to schedule themselves.',
      ],
      { scheduler },
    );
  }
  return ready({ cwd, roots: rooted.ready, filled: fillSecrets(command, setup.secrets) });
}
