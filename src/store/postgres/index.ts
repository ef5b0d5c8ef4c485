export { START_HINT } from './pg-errors.js';
export { PG_MIGRATIONS } from './pg-migrations.js';
export {
  openPostgresStore,
  type PostgresSessionStore,
  type PostgresStoreOptions,
} from './pg-session-store.js';
