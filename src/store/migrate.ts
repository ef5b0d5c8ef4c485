import type BetterSqlite3 from 'better-sqlite3';
import { StoreOpenError, StoreSchemaTooNewError } from '../core/store-errors.js';

/** One forward-only schema step; `version` is the schema version after it ran. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Marks a SQLite file as toolseam's (the header's application_id): "tsea". */
export const APPLICATION_ID = 0x74736561;

/**
 * Brings the database up to the last of `migrations`, one transaction per step. Safe when several
 * processes open the same fresh file at once: each step re-reads the version under the write lock.
 * Refuses a database from a newer toolseam and a SQLite file that belongs to something else.
 */
export function migrate(db: BetterSqlite3.Database, path: string, migrations: readonly Migration[]): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  const latest = migrations.length;
  checkOwnership(db, path);
  const current = schemaVersion(db);
  if (current > latest) throw new StoreSchemaTooNewError(path, current, latest);
  for (const step of migrations.slice(current)) {
    db.transaction(() => {
      const now = schemaVersion(db);
      if (now > latest) throw new StoreSchemaTooNewError(path, now, latest);
      if (now >= step.version) return;
      if (step.version === 1) db.pragma(`application_id = ${APPLICATION_ID}`);
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
    }).immediate();
  }
  return latest;
}

/** The schema version recorded in the file (0 for a new file). */
export function schemaVersion(db: BetterSqlite3.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** True when the file holds something other than a toolseam store (or a new, empty file). */
function isForeign(db: BetterSqlite3.Database): boolean {
  const appId = db.pragma('application_id', { simple: true }) as number;
  if (appId === APPLICATION_ID) return false;
  if (appId !== 0 || schemaVersion(db) !== 0) return true;
  const tables = db
    .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
    .get() as {
    n: number;
  };
  return tables.n > 0;
}

function checkOwnership(db: BetterSqlite3.Database, path: string): void {
  // One read transaction, so all three reads see the same state: another toolseam process migrating
  // the new file between them would otherwise make it look like some other program's database.
  if (db.transaction(() => isForeign(db)).deferred()) {
    throw new StoreOpenError(
      `${path} is a SQLite database that belongs to another program, not a toolseam session store. ` +
        'Point toolseam at a new file (--db) instead.',
      path,
    );
  }
}
