import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../src/store/open-database.js';
import {
  CHECKPOINT_EVERY_COMMITS,
  FALLBACK_AUTOCHECKPOINT_PAGES,
  WalCheckpointer,
} from '../../src/store/wal-checkpointer.js';
import { startChild } from './child-process.js';
import { openTestStore, tempDbPath } from './store-fixtures.js';

/** A migrated store file opened by a bare connection, with a table of its own to write rows of ~2 KB into. */
function connection(): { db: Database.Database; path: string; write(rows: number): void } {
  const path = tempDbPath();
  const db = openDatabase(path);
  onTestFinished(() => {
    db.close();
  });
  db.exec('CREATE TABLE filler (text TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO filler (text) VALUES (?)');
  const one = db.transaction(() => insert.run('x'.repeat(2000)));
  return { db, path, write: (rows) => Array.from({ length: rows }, () => one.immediate()) };
}

const autocheckpoint = (db: Database.Database) => db.pragma('wal_autocheckpoint', { simple: true });

/** A stand-in SQLite driver under `fixtures/`, for the worker to load. */
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** A checkpointer whose worker loads `driver`, after its first checkpoint (one asked at every commit). */
async function firstCheckpointWith(driver: string) {
  const { db, write } = connection();
  const checkpoints = new WalCheckpointer(db, { everyCommits: 1, driver });
  onTestFinished(() => checkpoints.close());
  write(1);
  checkpoints.committed();
  await checkpoints.settled();
  return { db, checkpoints };
}

describe('checkpoints of the write-ahead log, run by a worker thread', () => {
  it('copy the log into the file at every nth commit, which the writing connection no longer does', async () => {
    const { db, path, write } = connection();
    const checkpoints = new WalCheckpointer(db, { everyCommits: 40 });
    onTestFinished(() => checkpoints.close());
    expect(autocheckpoint(db)).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    // Past SQLite's own threshold of 1,000 pages (~2,000 rows of 2 KB), the file has not grown: nothing
    // was copied back on this thread.
    const before = statSync(path).size;
    for (let i = 0; i < 39; i += 1) {
      write(60);
      checkpoints.committed();
    }
    await checkpoints.settled();
    expect(checkpoints.last).toBeUndefined();
    expect(statSync(path).size).toBe(before);

    write(1);
    checkpoints.committed();
    await checkpoints.settled();
    expect(checkpoints.failure).toBeUndefined();
    expect(checkpoints.last?.log).toBeGreaterThan(1000);
    expect(checkpoints.last?.checkpointed).toBe(checkpoints.last?.log);
    expect(statSync(path).size).toBeGreaterThan(before + 39 * 60 * 2000);
  });

  it('give checkpoints back to the writing connection when the worker cannot run', async () => {
    const { db, checkpoints } = await firstCheckpointWith('/nowhere/better-sqlite3');
    expect(checkpoints.failure).toMatch(/nowhere/);
    expect(autocheckpoint(db)).toBe(1000);
    // No worker is started again.
    checkpoints.committed();
    await checkpoints.settled();
    expect(checkpoints.started).toBe(1);
  });

  it('give checkpoints back to the writing connection when the worker stops mid-checkpoint', async () => {
    const { db, checkpoints } = await firstCheckpointWith(fixture('exiting-sqlite-driver.cjs'));
    expect(checkpoints.failure).toMatch(/exit code 3/);
    expect(autocheckpoint(db)).toBe(1000);
    await checkpoints.close();
  });

  it('give checkpoints back when the worker stops between two of them, and still close', async () => {
    const { db, checkpoints } = await firstCheckpointWith(fixture('idle-exiting-sqlite-driver.cjs'));
    expect(checkpoints.last).toEqual({ log: 10, checkpointed: 10, passes: 2 });
    await expect.poll(() => checkpoints.failure, { timeout: 10_000 }).toMatch(/exit code 4/);
    expect(autocheckpoint(db)).toBe(1000);
    checkpoints.committed();
    await checkpoints.settled();
    expect(checkpoints.started).toBe(1);
    await checkpoints.close();
  });

  it("run under the store's commits and end with it, the log tidied away by the last close", async () => {
    const path = tempDbPath();
    const store = openTestStore(path);
    const before = statSync(path).size;
    for (let i = 0; i <= CHECKPOINT_EVERY_COMMITS; i += 1) await store.createSession({ title: `s${i}` });
    // Copied into the file while the store is open: the writing connection alone would not have yet.
    await expect.poll(() => statSync(path).size, { timeout: 10_000 }).toBeGreaterThan(before);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(statSync(path).size).toBeGreaterThan(before);
  });

  it('keep a process that closes the store mid-checkpoint alive until the close is done', async () => {
    const path = tempDbPath();
    const child = startChild('close-while-checkpointing', [path]);
    expect(await child.nextLine()).toBe('closed');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});
