import type pg from 'pg';
import { StoreOpenError, StoreSchemaTooNewError } from '../../core/store-errors.js';
import type { Migration } from '../migrate.js';

/** Any fixed number: the advisory lock every process migrating the same schema waits on. */
const MIGRATION_LOCK = 0x74736561;

/** The table that records which steps ran; its presence marks a schema as a toolseam store. */
const VERSIONS = 'toolseam_schema';

/**
 * Brings the connected schema up to the last of `migrations`, one transaction per step, each under an
 * advisory lock and re-reading the version, so several processes opening one new database at once each
 * see every step run exactly once. Refuses a schema from a newer toolseam and one that holds some other
 * program's tables. `where` names the database for messages.
 */
export async function migratePg(
  client: pg.ClientBase,
  where: string,
  migrations: readonly Migration[],
): Promise<number> {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  const latest = migrations.length;
  let version = await inStep(client, () => prepare(client, where));
  if (version > latest) throw new StoreSchemaTooNewError(where, version, latest);
  for (const step of migrations.slice(version)) {
    version = await inStep(client, async () => {
      const now = await currentVersion(client);
      if (now > latest) throw new StoreSchemaTooNewError(where, now, latest);
      if (now >= step.version) return now;
      try {
        await client.query(step.sql);
      } catch (cause) {
        throw new StoreOpenError(
          `Migrating the session store ${where} failed at step ${step.version} (${step.name}): ` +
            `${(cause as Error).message}. Nothing of that step was kept; check that the user may create ` +
            'tables and indexes in this schema, then start toolseam again.',
          where,
          { cause },
        );
      }
      await client.query(`INSERT INTO ${VERSIONS} (version, name, applied_at) VALUES ($1, $2, $3)`, [
        step.version,
        step.name,
        Date.now(),
      ]);
      return step.version;
    });
  }
  return latest;
}

/** The schema version recorded (0 for a new schema). */
async function currentVersion(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${VERSIONS}`);
  return Number(rows[0]?.v ?? 0);
}

/** Creates the version table in an empty schema; refuses a schema holding other tables and none of ours. */
async function prepare(client: pg.ClientBase, where: string): Promise<number> {
  const { rows: found } = await client.query<{ schema: string | null }>('SELECT current_schema() AS schema');
  if (found[0]?.schema == null) {
    throw new StoreOpenError(
      `The connection to ${where} has no schema to keep the store in (its search path names none that ` +
        'exists). Create it (CREATE SCHEMA name), or name one with ?schema=NAME in the URL: toolseam creates that one.',
      where,
    );
  }
  const { rows } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
  );
  const names = rows.map((r) => r.name);
  if (!names.includes(VERSIONS)) {
    if (names.length > 0) {
      throw new StoreOpenError(
        `The schema of ${where} already holds tables of another program (${names.slice(0, 3).join(', ')}…), ` +
          'not a toolseam session store. Give toolseam a database or schema of its own ' +
          '(a new database, or ?options=-c%20search_path%3Dtoolseam in the URL).',
        where,
      );
    }
    await client.query(
      `CREATE TABLE ${VERSIONS} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
    );
  }
  return currentVersion(client);
}

/** One transaction holding the migration lock. */
async function inStep<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
