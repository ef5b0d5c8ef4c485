import { readConfig, type ToolseamConfig } from '../config.js';

/** The flags that say which config file and database a command uses. */
export interface ConfigFlagValues {
  readonly config?: string | undefined;
  readonly db?: string | undefined;
}

/** The config file named by --config, else `./toolseam.json` when it exists. */
export function configFromFlags(flags: ConfigFlagValues): ToolseamConfig {
  return flags.config ? readConfig(flags.config) : readConfig('toolseam.json', { optional: true });
}

/**
 * The SQLite file a command opens: --db, else the config's "db" (the config is read only when --db
 * is absent); undefined means the default place (`$TOOLSEAM_DB`, else the user's data folder).
 */
export function databasePathFrom(flags: ConfigFlagValues, config?: ToolseamConfig): string | undefined {
  if (flags.db) return flags.db;
  return (config ?? configFromFlags(flags)).db;
}
