import { parseArgs } from 'node:util';

/** The flags of a command that reads the store: --db, --config, --json, --help. */
export interface StoreCommandArgs {
  readonly values: { db?: string; config?: string; json?: boolean; help?: boolean };
  readonly positionals: string[];
}

/** Reads a store command's flags and words; prints `usage` and gives undefined for --help. */
export function storeCommandArgs(argv: readonly string[], usage: string): StoreCommandArgs | undefined {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      config: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return undefined;
  }
  return { values, positionals };
}
