import { beforeAll } from 'vitest';
import type { SessionStore } from '../../src/core/session-store.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { dropSchemas, freshSchemaName, PG_URL, requirePostgres } from './pg-fixtures.js';
import { sessionStoreContract } from './session-store.contract.js';

// Each case gets a schema of its own; a reopened store is another pool of connections to that schema.
const opened: SessionStore[] = [];
const schemas: string[] = [];
const schemaOf = new Map<SessionStore, string>();

function tracked(store: SessionStore, schema: string): SessionStore {
  opened.push(store);
  schemaOf.set(store, schema);
  return store;
}

beforeAll(requirePostgres);

sessionStoreContract('PostgreSQL (a schema per case)', {
  open: async (options = {}) => {
    const schema = freshSchemaName();
    schemas.push(schema);
    return tracked(await openPostgresStore({ url: PG_URL, schema, ...options }), schema);
  },
  reopen: async (store) => {
    const schema = schemaOf.get(store) as string;
    return tracked(await openPostgresStore({ url: PG_URL, schema }), schema);
  },
  cleanup: async () => {
    for (const store of opened.splice(0)) await store.close();
    schemaOf.clear();
    await dropSchemas(schemas.splice(0));
  },
});
