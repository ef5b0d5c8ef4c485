import { InputError } from '../core/errors.js';
import { COMMANDS } from './commands.js';

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(18)} ${c.summary}`);
  return ['usage: toolseam <command> [options]', '', 'commands:', ...rows].join('\n');
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`toolseam: unknown command "${name}". Run "toolseam --help" to see the commands.\n`);
    return 2;
  }
  try {
    return await (await entry.load())(rest);
  } catch (error) {
    if (error instanceof InputError) {
      process.stderr.write(`toolseam ${name}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
