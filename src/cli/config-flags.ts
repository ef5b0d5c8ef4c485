import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readConfig, type ToolseamConfig } from '../config.js';
import { InputError } from '../core/errors.js';
import { defaultDatabasePath } from '../store/default-path.js';
import { isPostgresUrl } from '../store/postgres-url.js';

/** The flags that say which config file and database a command uses. */
export interface ConfigFlagValues {
  readonly config?: string | undefined;
  readonly db?: string | undefined;
}

/** A value given for a path flag; an empty one (`--db ""`, `--db=`) is refused rather than taken as absent. */
function pathFlag(flag: 'config' | 'db', value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') {
    const what = flag === 'db' ? 'a file path or a postgres:// URL' : 'a file path';
    throw new InputError(`--${flag} needs ${what}; leave --${flag} out to use the default.`);
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

/** A database path someone named, and where they named it, as a person reads it. */
interface NamedDatabase {
  readonly path: string;
  /** `--db`, `"db" in FILE` or `$TOOLSEAM_DB`. */
  readonly from: string;
  /** How to make the file this way. */
  readonly create: string;
}

/** The database path someone named (--db, the config's "db", `$TOOLSEAM_DB`), or undefined for the data folder. */
function namedDatabase(flags: ConfigFlagValues, env: NodeJS.ProcessEnv): NamedDatabase | undefined {
  const db = pathFlag('db', flags.db);
  if (db !== undefined) return { path: db, from: '--db', create: '`toolseam chat --db FILE` creates one' };
  const config = configFromFlags(flags);
  if (config.db !== undefined) {
    return {
      path: config.db,
      from: `"db" in ${config.file ?? 'the config'}`,
      create: '`toolseam chat` creates it',
    };
  }
  // the same test as the default place's: an empty variable counts as unset
  const variable = env['TOOLSEAM_DB'];
  if (variable) return { path: variable, from: '$TOOLSEAM_DB', create: '`toolseam chat` creates it' };
  return undefined;
}

/** The session database a command that only reads or answers what is there would open. */
export interface ExistingDatabase {
  /** The file: the one named by --db, the config's "db" or `$TOOLSEAM_DB`, else the default place. */
  readonly path: string;
  /** False only for the default place when nothing has made a database there yet. */
  readonly exists: boolean;
}

/**
 * The database a command that only reads or answers what is there opens: --db, else the config's "db",
 * else `$TOOLSEAM_DB`, and the file named must exist, so a mistyped path is told (with where it was
 * named) instead of opened as a new, empty store that seems to have lost every session. Else the user's
 * data folder, which nobody typed: when no database is there yet, `exists` says so and the command
 * tells the person there is nothing yet, without creating one.
 */
export function existingDatabaseFrom(
  flags: ConfigFlagValues,
  env: NodeJS.ProcessEnv = process.env,
): ExistingDatabase {
  const named = namedDatabase(flags, env);
  // A PostgreSQL database is not a file: whether it answers is for opening it to say.
  if (named !== undefined && isPostgresUrl(named.path)) return { path: named.path, exists: true };
  if (named !== undefined && !existsSync(named.path)) {
    throw new InputError(
      `there is no session database at ${named.path} (named by ${named.from}); check the path (${named.create}).`,
      named.path,
    );
  }
  if (named !== undefined) return { path: named.path, exists: true };
  const path = defaultDatabasePath({ env });
  return { path, exists: existsSync(path) };
}

/** A database setting made absolute: a SQLite path against this folder; a postgres:// URL as it is. */
export function absoluteDatabase(db: string): string {
  return isPostgresUrl(db) ? db : resolve(db);
}

/** Why a command found nothing, when the default place has no database yet (one line, with where it looked). */
export function noDatabaseYet(db: ExistingDatabase): string {
  return `there is no session database yet at ${db.path} (\`toolseam chat\` creates it; --db names another)`;
}
