import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { CONFIG_FILE_NAME } from './file-scope.js';
import { globMatcher } from './glob-matcher.js';
import { realPathOf } from './real-path.js';
import { CHANGES_FILES, redirectTargets } from './shell-words.js';

function expandHome(word: string): string {
  const home = homedir();
  return word.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
}

async function configNamedBy(
  word: string,
  cwd: string,
  configs: readonly string[],
  written = false,
): Promise<string | undefined> {
  const name = basename(word);
  // A wildcard the shell expands onto the config counts as naming it; where output is written, even
  // a bare `*` does (bash writes to the one file it matches).
  if (name === CONFIG_FILE_NAME || globNames(name, CONFIG_FILE_NAME, written)) return word;
  if (configs.some((config) => globNames(name, basename(config), written))) return word;
  // The same name as a configured config: the same file only if the path resolves to it.
  if (!configs.some((config) => basename(config) === name)) return undefined;
  const real = await realPathOf(resolve(cwd, expandHome(word)));
  return real !== undefined && configs.includes(real) ? word : undefined;
}

/**
 * The runtime config file a command would change, if any: the command names one (any `toolseam.json`, or a
 * configured config path however it is written) and redirects output onto it or runs something that changes
 * files. Reading the config (`cat`, `jq`, `git diff`) is left alone.
 */
export async function configEdit(
  command: string,
  cwd: string,
  configPaths: readonly string[],
): Promise<string | undefined> {
  const configs: string[] = [];
  for (const path of configPaths) {
    const real = await realPathOf(resolve(cwd, expandHome(path)));
    if (real !== undefined) configs.push(real);
  }
  // Also with quotes and backslashes taken out: `> tool'seam'.json` writes the same file as `> toolseam.json`.
  const unquoted = command.replace(/["'\\]/g, '');
  for (const text of unquoted === command ? [command] : [command, unquoted]) {
    for (const target of redirectTargets(text)) {
      const named = await configNamedBy(target, cwd, configs, true);
      if (named !== undefined) return named;
    }
    if (!CHANGES_FILES.test(text)) continue;
    for (const word of text.split(/[\s'"`;&|()<>=]+/)) {
      if (word === '') continue;
      const named = await configNamedBy(word, cwd, configs);
      if (named !== undefined) return named;
    }
  }
  return undefined;
}

/**
 * True when `word` holds shell wildcards that expand onto the file name `name`. Unless `anyWildcard`,
 * a bare `*` or `?` (a cron schedule, `cp * dest/`) is left alone: it names every file, not this one.
 */
function globNames(word: string, name: string, anyWildcard: boolean): boolean {
  if (!/[*?[{]/.test(word)) return false;
  if (!anyWildcard && word.replace(/[*?[\]{},!^-]/g, '').length < 3) return false;
  try {
    return globMatcher(word, false).test(name);
  } catch {
    return false;
  }
}
