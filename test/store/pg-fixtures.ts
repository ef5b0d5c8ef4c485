import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import {
  openPostgresStore,
  type PostgresSessionStore,
  type PostgresStoreOptions,
} from '../../src/store/postgres/index.js';
import { START_HINT } from '../../src/store/postgres/pg-errors.js';

/** The database the Postgres tests use: TOOLSEAM_TEST_PG, or the machine's own (trust auth, database `test`). */
export const PG_URL = process.env['TOOLSEAM_TEST_PG'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Fails (never skips) with how to start the server when no PostgreSQL answers at PG_URL. */
export async function requirePostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `The Postgres store tests need a PostgreSQL at ${PG_URL} (set TOOLSEAM_TEST_PG for another), but ` +
        `connecting failed: ${(error as Error).message}. Start the machine's server with: ${START_HINT}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A new schema name no other test uses. */
export function freshSchemaName(): string {
  return `toolseam_t_${randomBytes(6).toString('hex')}`;
}

/** Drops the schemas, with everything in them. */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Opens a store in a schema of its own (a fresh one by default), closed and dropped when the test ends. */
export async function openPgTestStore(
  schema = freshSchemaName(),
  options: Omit<PostgresStoreOptions, 'url' | 'schema'> = {},
): Promise<PostgresSessionStore> {
  const store = await openPostgresStore({ url: PG_URL, schema, ...options });
  onTestFinished(async () => {
    await store.close();
    await dropSchemas([schema]);
  });
  return store;
}
