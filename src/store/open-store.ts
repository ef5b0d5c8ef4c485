import type { SessionStore } from '../core/session-store.js';
import { isPostgresUrl } from './postgres-url.js';
import { openSessionStore, type SessionStoreOptions } from './sqlite-session-store.js';

/**
 * Opens the session store a `db` setting names: a PostgreSQL database for a `postgres://` URL (its
 * driver is loaded only then), else the SQLite file at that path, as `openSessionStore` opens it.
 */
export async function openStore(
  db: string,
  options: Omit<SessionStoreOptions, 'path'> = {},
): Promise<SessionStore> {
  if (!isPostgresUrl(db)) return openSessionStore({ ...options, path: db });
  const { openPostgresStore } = await import('./postgres/index.js');
  return openPostgresStore({ url: db.trim(), ...(options.now ? { now: options.now } : {}) });
}
