import { ToolseamError } from '../core/errors.js';
import { COMMANDS } from './commands.js';
import { packageVersion } from './package-version.js';
import { parseArgsSaid } from './parse-args-said.js';
import { visible } from './visible-text.js';

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(18)} ${c.summary}`);
  const options = [
    `  ${'--version, -V'.padEnd(18)} print toolseam's version`,
    `  ${'--help, -h'.padEnd(18)} this list`,
  ];
  return ['usage: toolseam <command> [options]', '', 'commands:', ...rows, '', 'options:', ...options].join(
    '\n',
  );
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(
      `toolseam: unknown command "${visible(name)}". Run "toolseam --help" to see the commands.\n`,
    );
    return 2;
  }
  try {
    return await (await entry.load())(rest);
  } catch (error) {
    const message = deliberateMessage(error, name);
    if (message === undefined) throw error; // a bug: keep the stack trace
    process.stderr.write(`toolseam ${name}: ${visible(oneLine(message, name))}\n`);
    return 2;
  }
}

/** What to tell the person for an error raised on purpose (toolseam's own, a bad flag); undefined for a bug. */
function deliberateMessage(error: unknown, command: string): string | undefined {
  if (error instanceof ToolseamError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
    return `${parseArgsSaid(error)} Run \`toolseam ${command} --help\` to see its options.`;
  }
  return undefined;
}

/**
 * An error as one line: a message that runs on (a usage text appended, a library's multi-line detail)
 * keeps its first line and points at the command's --help, never squashing the rest into one long line.
 */
function oneLine(message: string, command: string): string {
  const [first = '', ...more] = message.trim().split(/\s*\n\s*/);
  if (more.length === 0) return first;
  const hint = `Run \`toolseam ${command} --help\` for the usage.`;
  return first.includes('--help') ? first : `${first.replace(/[.:;,]?$/, '.')} ${hint}`;
}
