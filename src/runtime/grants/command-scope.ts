import { basename } from 'node:path';
import {
  INTERPRETERS,
  PLAIN_BUILTINS,
  PYTHON,
  RUNS_COMMANDS,
  SHELL_OWN,
  SUBCOMMANDS,
} from './command-programs.js';
import { readShellCommand, type ShellWord } from './shell-words.js';

/**
 * What "always" for a shell command covers: later commands that start with exactly these words (the
 * program and its subcommand) and are otherwise one plain command; or this exact command only, and why.
 */
export type CommandScope =
  | { readonly kind: 'command'; readonly words: readonly string[] }
  | { readonly kind: 'exact-command'; readonly command: string; readonly narrowed: string };

/** A program, subcommand or script as a grant names it: a plain name or path, not an option, no `=`. */
const PLAIN = /^[A-Za-z0-9_./][A-Za-z0-9_./@%+:,-]*$/;

const ONLY_THIS = 'so "always" covers this exact command only';

function plainWord(word: ShellWord | undefined): word is ShellWord {
  return word?.literal === true && !word.assignment && PLAIN.test(word.text);
}

/**
 * The scope of "always" for `command`: its program and, for a program with subcommands, the
 * subcommand (`git status`), or for an interpreter the script it runs (`python3 manage.py`). A command
 * that is more than one plain command, sets variables, runs through a wrapper (`sudo`, `env`, `xargs`,
 * `bash -c`…) or names its program in a way bash expands is scoped to itself.
 */
export function commandScope(command: string): CommandScope {
  const text = command.trim();
  const exact = (why: string): CommandScope => ({
    kind: 'exact-command',
    command: text,
    narrowed: `${why}, ${ONLY_THIS}`,
  });
  const reading = readShellCommand(text);
  if (!reading.plain) return exact(reading.why);
  const [first, second, third] = reading.words;
  if (first === undefined) return exact('it is empty');
  if (first.assignment) return exact('it sets environment variables for the program');
  if (!plainWord(first)) return exact('its program is not named plainly');
  const program = first.text;
  const name = basename(program);
  if (SHELL_OWN.has(program) && !PLAIN_BUILTINS.has(program)) {
    return exact(`\`${program}\` is part of the shell itself and can run code given to it`);
  }
  if (RUNS_COMMANDS.has(name)) return exact(`\`${name}\` runs other commands given to it`);
  if (INTERPRETERS.has(name) || PYTHON.test(name)) {
    if (!plainWord(second)) return exact(`\`${name}\` runs code given in its arguments`);
    return { kind: 'command', words: [program, second.text] };
  }
  const subcommands = SUBCOMMANDS.get(name);
  if (subcommands === undefined) return { kind: 'command', words: [program] };
  if (!plainWord(second)) {
    return exact(`\`${name}\` is granted with its subcommand, and this command names none first`);
  }
  const sub = second.text;
  if (subcommands.runs.has(sub)) return exact(`\`${name} ${sub}\` can run other commands`);
  if (!subcommands.scripts.has(sub)) return { kind: 'command', words: [program, sub] };
  if (!plainWord(third)) return exact(`\`${name} ${sub}\` is granted with the script it runs`);
  return { kind: 'command', words: [program, sub, third.text] };
}

/**
 * True when `command` is one plain command whose leading words are exactly `words`, each written so
 * bash passes it on as it is (quotes may differ: `git "status"` is `git status`).
 */
export function commandStartsWith(command: string, words: readonly string[]): boolean {
  const reading = readShellCommand(command.trim());
  if (!reading.plain || reading.words.length < words.length) return false;
  return words.every((expected, i) => {
    const word = reading.words[i];
    return word?.literal === true && !word.assignment && word.text === expected;
  });
}

/** The one line a person reads about a command scope, e.g. "run `git status …` (any further arguments)". */
export function commandSummary(scope: CommandScope): string {
  if (scope.kind === 'command') return `run \`${scope.words.join(' ')} …\` (any further arguments)`;
  const shown = scope.command;
  // Shown inline only when it reads as it is: short, one line, no backtick or control character.
  return shown.length <= 100 && !/[\u0000-\u001f\u007f-\u009f`]/.test(shown)
    ? `run exactly \`${shown}\` again`
    : 'run exactly this command again (as shown above)';
}
