import { onTestFinished } from 'vitest';
import type { SessionStore } from '../../src/core/session-store.js';
import { openStore } from '../../src/store/index.js';
import { dropSchemas, freshSchemaName, PG_URL, requirePostgres } from './pg-fixtures.js';
import { tempDbPath } from './store-fixtures.js';

/**
 * Each back end by name, with a fresh database on it as a `db` setting names one: a SQLite file; a
 * Postgres schema (`?schema=`), dropped when the test ends. For `describe.each`.
 */
export const BACK_ENDS: readonly (readonly [string, () => Promise<string>])[] = [
  ['SQLite', async () => tempDbPath()],
  [
    'PostgreSQL',
    async () => {
      await requirePostgres();
      const schema = freshSchemaName();
      onTestFinished(() => dropSchemas([schema]));
      return `${PG_URL}?schema=${schema}`;
    },
  ],
];

/** A store on `db` (a file or a postgres:// URL), as another process would open it; closed when the test ends. */
export async function openedOn(
  db: string,
  options: { readonly busyTimeoutMs?: number } = {},
): Promise<SessionStore> {
  const store = await openStore(db, options);
  onTestFinished(() => store.close());
  return store;
}
