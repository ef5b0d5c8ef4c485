import { statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreBusyError, StoreOpenError, StoreSchemaTooNewError } from '../../src/core/store-errors.js';
import { openSessionStore } from '../../src/store/index.js';
import { APPLICATION_ID, migrate, schemaVersion } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { openDatabase } from '../../src/store/open-database.js';
import { openTestStore, tempDbPath } from './store-fixtures.js';

const TABLES = [
  'approvals',
  'audit',
  'automations',
  'batches',
  'compactions',
  'embedding_vectors',
  'full_results',
  'grants',
  'leaves',
  'memories',
  'messages',
  'model_usage',
  'outbox',
  'session_tools',
  'sessions',
  // SQLite's own: where AUTOINCREMENT (turn_events) keeps the largest id given
  'sqlite_sequence',
  'tasks',
  'tool_calls',
  'tool_quarantine',
  'tool_switches',
  'turn_events',
  'turns',
  'users',
];

function inspect(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE '%fts%' ORDER BY name")
      .pluck()
      .all();
    return {
      tables,
      version: schemaVersion(db),
      appId: db.pragma('application_id', { simple: true }),
      journal: db.pragma('journal_mode', { simple: true }),
    };
  } finally {
    db.close();
  }
}

describe('schema migrations', () => {
  it('builds every table on an empty file, in WAL mode, marked as toolseam', async () => {
    const path = tempDbPath();
    await openTestStore(path).close();
    const found = inspect(path);
    expect(found.tables).toEqual(TABLES);
    expect(found.version).toBe(MIGRATIONS.length);
    expect(found.appId).toBe(APPLICATION_ID);
    expect(found.journal).toBe('wal');
  });

  it('reopens an up-to-date file without changing it and keeps the data', async () => {
    const path = tempDbPath();
    const first = openSessionStore({ path });
    const session = await first.createSession({ title: 'kept' });
    await first.close();
    const again = openTestStore(path);
    expect((await again.getSession(session.id))?.title).toBe('kept');
    expect(inspect(path).version).toBe(MIGRATIONS.length);
  });

  it('upgrades an older file step by step and keeps what it held', async () => {
    const path = tempDbPath();
    const old = new Database(path);
    migrate(old, path, MIGRATIONS.slice(0, 2));
    old
      .prepare("INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s-old', 'from v2', 1, 1)")
      .run();
    old.close();
    expect(inspect(path).version).toBe(2);

    const store = openTestStore(path);
    expect(inspect(path).version).toBe(MIGRATIONS.length);
    expect((await store.getSession('s-old'))?.title).toBe('from v2');
    expect((await store.saveMemory({ text: 'a step-8 table works' })).text).toBe('a step-8 table works');
  });

  it('gives the turns of a v9 file no heartbeat, so an older toolseam still running them does not look gone', async () => {
    const path = tempDbPath();
    const old = new Database(path);
    migrate(old, path, MIGRATIONS.slice(0, 9));
    old.exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s1', 't', 1, 1);
      INSERT INTO turns (id, session_id, status, user_text, owner, started_at)
        VALUES ('t-owned', 's1', 'waiting_approval', 'hi', 'old-host:7', 1000);`);
    old.close();
    const store = openTestStore(path);
    expect(await store.getTurn('t-owned')).toMatchObject({ owner: 'old-host:7', ownerSeenAt: undefined });
  });

  it('keeps the model usage of a v24 file in order, its new rows numbered without sqlite_sequence', async () => {
    const path = tempDbPath();
    const old = new Database(path);
    migrate(old, path, MIGRATIONS.slice(0, 24));
    old.exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s1', 't', 1, 1);
      INSERT INTO model_usage (session_id, turn_id, input_tokens, output_tokens, request_chars, created_at)
        VALUES ('s1', 't1', 100, 10, 400, 1), ('s1', 't2', 200, 20, 800, 2);`);
    old.close();
    const store = openTestStore(path);
    await store.recordUsage({
      sessionId: 's1',
      turnId: 't3',
      inputTokens: 300,
      outputTokens: 30,
      requestChars: 1200,
    });
    expect((await store.listUsage('s1')).map((u) => [u.turnId, u.inputTokens])).toEqual([
      ['t1', 100],
      ['t2', 200],
      ['t3', 300],
    ]);
    await store.close();
    const db = new Database(path, { readonly: true });
    try {
      const counted = db
        .prepare("SELECT count(*) FROM sqlite_sequence WHERE name = 'model_usage'")
        .pluck()
        .get();
      expect(counted).toBe(0);
    } finally {
      db.close();
    }
  });

  it('an upgrade blocked by another process holding the write lock says to try again', () => {
    const path = tempDbPath();
    const old = new Database(path);
    migrate(old, path, MIGRATIONS.slice(0, 9));
    old.pragma('journal_mode = WAL');
    old.exec('BEGIN IMMEDIATE');
    try {
      const open = () => openSessionStore({ path, busyTimeoutMs: 30 });
      expect(open).toThrow(StoreBusyError);
      expect(open).toThrow(/locked by another process/);
    } finally {
      old.exec('ROLLBACK');
      old.close();
    }
    expect(inspect(path).version).toBe(9);
  });

  it('numbers its steps 1, 2, 3, … and each step is applied once', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    const db = new Database(tempDbPath());
    try {
      migrate(db, 'x', MIGRATIONS);
      expect(() => migrate(db, 'x', MIGRATIONS)).not.toThrow();
      expect(schemaVersion(db)).toBe(MIGRATIONS.length);
      expect(() => migrate(db, 'x', [MIGRATIONS[1]!])).toThrow(/expected 1/);
    } finally {
      db.close();
    }
  });

  it('refuses a file written by a newer toolseam, naming both versions, and leaves it alone', async () => {
    const path = tempDbPath();
    await openTestStore(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${MIGRATIONS.length + 3}`);
    raw.close();

    const error = (() => {
      try {
        openSessionStore({ path });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StoreSchemaTooNewError);
    const tooNew = error as StoreSchemaTooNewError;
    expect(tooNew.code).toBe('store_schema_too_new');
    expect(tooNew.found).toBe(MIGRATIONS.length + 3);
    expect(tooNew.supported).toBe(MIGRATIONS.length);
    expect(tooNew.message).toMatch(/newer toolseam.*upgrade toolseam/s);
    expect(inspect(path).version).toBe(MIGRATIONS.length + 3);
  });

  it('refuses a SQLite file that belongs to another program', () => {
    const path = tempDbPath();
    const other = new Database(path);
    other.exec('CREATE TABLE recipes (name TEXT)');
    other.close();
    expect(() => openSessionStore({ path })).toThrow(StoreOpenError);
    expect(() => openSessionStore({ path })).toThrow(/belongs to another program/);
  });

  it('refuses a file that is not a database at all, with the path and what to do', () => {
    const path = tempDbPath();
    writeFileSync(path, 'these are my shopping notes, not a database '.repeat(200));
    expect(() => openSessionStore({ path })).toThrow(StoreOpenError);
    expect(() => openSessionStore({ path })).toThrow(/--db/);
  });

  it('sets up the connection: WAL, foreign keys, busy timeout, normal sync unless full is asked for', () => {
    const full = openDatabase(tempDbPath(), { synchronous: 'full' });
    expect(full.pragma('synchronous', { simple: true })).toBe(2);
    full.close();
    const db = openDatabase(tempDbPath(), { busyTimeoutMs: 1234 });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(() =>
        db
          .prepare(
            "INSERT INTO turns (id, session_id, status, user_text, started_at) VALUES ('t', 'no-such-session', 'running', '', 1)",
          )
          .run(),
      ).toThrow(/FOREIGN KEY/);
    } finally {
      db.close();
    }
  });

  it('creates the folders of a path that does not exist yet, readable by the user alone', () => {
    const path = tempDbPath().replace(/toolseam\.db$/, 'deeper/still/toolseam.db');
    const store = openTestStore(path);
    expect(store.path).toBe(path);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
  });

  it('creates the database file and its WAL files readable by the user alone, in a folder that exists', async () => {
    const path = tempDbPath();
    const store = openTestStore(path);
    await store.createSession({ title: 'private' });
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('builds no temporary table for the writes every turn makes', () => {
    const db = openDatabase(tempDbPath());
    try {
      const writes = [
        "INSERT INTO turns (id, session_id, status, user_text, started_at) VALUES ('t', 's', 'running', '', 1)",
        "INSERT INTO messages (session_id, turn_id, role, content, created_at) VALUES ('s', 't', 'user', '', 1)",
        `INSERT INTO tool_calls (turn_id, call_id, session_id, idx, tool_name, wire_name, raw_arguments, digest,
           status, created_at, updated_at) VALUES ('t', 'c', 's', 0, 'x', 'x', '{}', 'd', 'pending', 1, 1)`,
        "UPDATE tool_calls SET status = 'running' WHERE turn_id = 't' AND call_id = 'c' AND status = 'approved'",
        "UPDATE turns SET status = 'done' WHERE id = 't'",
        `INSERT INTO approvals (id, session_id, turn_id, call_id, tool_name, arguments, digest, risk, meaning, status,
           created_at) VALUES ('a', 's', 't', 'c', 'x', '{}', 'd', 'caution', 'm', 'pending', 1)`,
        "UPDATE approvals SET status = 'approved', scope = 'once' WHERE id = 'a'",
        "UPDATE leaves SET status = 'running' WHERE id = 'l' AND status = 'queued'",
        "INSERT INTO tasks (id, title, status, created_at, updated_at) VALUES ('k', 'x', 'pending', 1, 1)",
      ];
      for (const sql of writes) {
        const opcodes = db
          .prepare(`EXPLAIN ${sql}`)
          .all()
          .map((row) => (row as { opcode: string }).opcode);
        expect(opcodes, sql).not.toContain('OpenEphemeral');
      }
    } finally {
      db.close();
    }
  });
});
