import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { StoreBusyError } from '../../src/core/store-errors.js';
import { BACK_ENDS, openedOn } from './back-ends.js';
import { startChild } from './child-process.js';
import { commandScopeOf, newCall, openTestStore, tempDbPath, turnWithCalls } from './store-fixtures.js';

describe.each(BACK_ENDS)('several processes on one store (%s)', (_name, fresh) => {
  it('four processes racing to claim one call: exactly one runs it', async () => {
    const db = await fresh();
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-race-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const ranFile = join(dir, 'ran');
    const store = await openedOn(db);
    const { turn } = await turnWithCalls(store, [
      newCall('c1', 'bash', { cmd: 'backup' }, { status: 'approved' }),
    ]);
    const children = Array.from({ length: 4 }, () => startChild('claim-race', [db, turn.id, 'c1', ranFile]));
    for (const child of children) expect(await child.nextLine()).toBe('ready');
    for (const child of children) child.process.stdin.write('go\n');
    const outcomes = await Promise.all(
      children.map(async (c) => JSON.parse(await c.nextLine()) as { won: boolean }),
    );

    expect(outcomes.filter((o) => o.won)).toHaveLength(1);
    expect(readFileSync(ranFile, 'utf8').trim().split('\n')).toHaveLength(1);
    const call = await store.getToolCall(turn.id, 'c1');
    expect(call?.status).toBe('done');
    expect(call?.result).toBe(`ran in ${call?.claimedBy?.slice('pid:'.length)}`);
    expect((await store.listMessages(turn.sessionId)).filter((m) => m.message.role === 'tool')).toHaveLength(
      1,
    );
  }, 60_000);
});

describe('several processes on one file', () => {
  it('readers are not blocked by a writer and never see its uncommitted work', async () => {
    const path = tempDbPath();
    const writer = openTestStore(path);
    const readers = [1, 2, 3].map(() => openTestStore(path, { busyTimeoutMs: 0 }));
    const session = await writer.createSession({ title: 'before' });
    // The writes run inside the calls, within the open transaction; the readers' answers are read after it.
    const seenInside = writer.transaction(() => {
      void writer.updateSession(session.id, { title: 'inside' });
      void writer.createTask({ title: 'half-written' });
      return readers.map((reader) => [reader.getSession(session.id), reader.listTasks()] as const);
    });
    for (const [seen, tasks] of seenInside) {
      expect((await seen)?.title).toBe('before');
      expect(await tasks).toEqual([]);
    }
    for (const reader of readers) {
      expect((await reader.getSession(session.id))?.title).toBe('inside');
      expect((await reader.listTasks()).map((t) => t.title)).toEqual(['half-written']);
    }
  });

  it("inside a caller's transaction, a store method that fails undoes only its own writes", async () => {
    const store = openTestStore();
    const { session, turn } = await turnWithCalls(store, []);
    const before = (await store.listMessages(session.id)).length;
    const { failed } = store.transaction(() => {
      void store.createTask({ title: 'kept' });
      const twice = [newCall('same', 'grep', { p: 1 }), newCall('same', 'grep', { p: 2 })];
      const refused = store.recordModelReply(turn.id, { content: 'half', calls: twice });
      void store.createTask({ title: 'also kept' });
      return { failed: refused };
    });
    await expect(failed).rejects.toThrow(/unique in a turn/);
    expect((await store.listTasks()).map((t) => t.title)).toEqual(['kept', 'also kept']);
    expect(await store.listMessages(session.id)).toHaveLength(before);
    expect(await store.listToolCalls({ turnId: turn.id })).toEqual([]);
  });

  it('a failed transaction leaves nothing behind', async () => {
    const store = openTestStore();
    const session = await store.createSession({ title: 'kept' });
    expect(() =>
      store.transaction(() => {
        void store.updateSession(session.id, { title: 'lost' });
        void store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: session.id });
        throw new Error('the runtime changed its mind');
      }),
    ).toThrow(/changed its mind/);
    expect((await store.getSession(session.id))?.title).toBe('kept');
    expect(await store.listGrants({ sessionId: session.id })).toEqual([]);
  });

  it("a writer waits for another process's lock, and past the busy timeout gets a clear error", async () => {
    const path = tempDbPath();
    const impatient = openTestStore(path, { busyTimeoutMs: 0 });
    const patient = openTestStore(path, { busyTimeoutMs: 10_000 });
    const holder = startChild('hold-lock', [path]);
    expect(await holder.nextLine()).toBe('holding');

    const refused = () => impatient.createTask({ title: 'in a hurry' });
    await expect(refused()).rejects.toThrow(StoreBusyError);
    await expect(refused()).rejects.toThrow(/stayed locked by another process for more than 0 ms/);
    // This call blocks until the holder commits (its lock lasts 600 ms), then goes through.
    await patient.createTask({ title: 'waited' });
    expect((await patient.listTasks()).map((t) => t.title)).toEqual(['written by the lock holder', 'waited']);
    expect(await holder.nextLine()).toBe('released');
  }, 60_000);
});
