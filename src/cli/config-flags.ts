import { existsSync } from 'node:fs';
import { readConfig, type ToolseamConfig } from '../config.js';
import { InputError } from '../core/errors.js';

/** The flags that say which config file and database a command uses. */
export interface ConfigFlagValues {
  readonly config?: string | undefined;
  readonly db?: string | undefined;
}

/** A value given for a path flag; an empty one (`--db ""`, `--db=`) is refused rather than taken as absent. */
function pathFlag(flag: 'config' | 'db', value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') {
    throw new InputError(`--${flag} needs a file path; leave --${flag} out to use the default.`);
  }
  return value;
}

/** The config file named by --config, else `./toolseam.json` when it exists. */
export function configFromFlags(flags: ConfigFlagValues): ToolseamConfig {
  const file = pathFlag('config', flags.config);
  return file !== undefined ? readConfig(file) : readConfig('toolseam.json', { optional: true });
}

/**
 * The SQLite file a command opens: --db, else the config's "db" (the config is read only when --db
 * is absent); undefined means the default place (`$TOOLSEAM_DB`, else the user's data folder).
 */
export function databasePathFrom(flags: ConfigFlagValues, config?: ToolseamConfig): string | undefined {
  const db = pathFlag('db', flags.db);
  if (db !== undefined) return db;
  return (config ?? configFromFlags(flags)).db;
}

/**
 * The database a command that only reads or answers what is there opens: like `databasePathFrom`,
 * but a file that was named (--db or the config's "db") must exist, so a mistyped path is told
 * instead of opened as a new, empty store that seems to have lost every session.
 */
export function existingDatabaseFrom(flags: ConfigFlagValues): string | undefined {
  const path = databasePathFrom(flags);
  if (path !== undefined && !existsSync(path)) {
    throw new InputError(
      `there is no session database at ${path}; check the path (\`toolseam chat --db FILE\` creates one).`,
      path,
    );
  }
  return path;
}
