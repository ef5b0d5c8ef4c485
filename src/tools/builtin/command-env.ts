import { CREDENTIAL_WORDS } from './shell-options.js';

/** The variables every command gets from toolseam's environment, when they are set. */
const ALWAYS = ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'USER', 'LOGNAME'];

/** What a command's environment is made from. */
export interface CommandEnvParts {
  /** Names of more variables to pass on (the config's `shell.env`). */
  readonly names: readonly string[];
  /** Values that must never reach a command: stored secrets, the provider's key, credential variables. */
  readonly hidden: Iterable<string>;
  /** Set as given, after the rest (the no-prompt variables, the filled-in secret references). */
  readonly fixed: Readonly<Record<string, string>>;
}

/**
 * The small environment a command runs with: PATH, HOME, the locale (LANG, LC_*), TERM, TZ, USER and
 * LOGNAME, and the variables the config names, taken from `base`. A variable whose name says it holds a
 * credential (KEY, SECRET, TOKEN, PASSWORD, CREDENTIAL) is never passed on, nor one holding a hidden
 * value under another name; `{{secret:NAME}}` is how a secret enters a command.
 */
export function commandEnv(base: NodeJS.ProcessEnv, parts: CommandEnvParts): Record<string, string> {
  const hidden = new Set([...parts.hidden].filter((value) => value.length > 0));
  const env: Record<string, string> = {};
  const wanted = (name: string): boolean =>
    ALWAYS.includes(name) || name.startsWith('LC_') || parts.names.includes(name);
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || !wanted(name) || CREDENTIAL_WORDS.test(name) || hidden.has(value)) continue;
    env[name] = value;
  }
  return { ...env, ...parts.fixed };
}
