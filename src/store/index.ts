export { type DataDirEnvironment, defaultDatabasePath } from './default-path.js';
export { APPLICATION_ID, type Migration, schemaVersion } from './migrate.js';
export { MIGRATIONS } from './migrations.js';
export type { DatabaseOptions } from './open-database.js';
export { openStore } from './open-store.js';
export type { PostgresSessionStore, PostgresStoreOptions } from './postgres/index.js';
export { isPostgresUrl } from './postgres-url.js';
export {
  openSessionStore,
  type SessionStoreOptions,
  type SqliteSessionStore,
} from './sqlite-session-store.js';
