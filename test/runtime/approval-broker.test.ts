import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LocalSignals } from '../../src/core/local-signals.js';
import { ApprovalBroker } from '../../src/runtime/calls/approval-broker.js';
import { openSessionStore } from '../../src/store/index.js';
import { newCall, openTestStore, turnWithCalls } from '../store/store-fixtures.js';

async function pending(busyTimeoutMs?: number) {
  const store = openTestStore(undefined, busyTimeoutMs === undefined ? {} : { busyTimeoutMs });
  const { turn } = await turnWithCalls(store, [newCall('c1', 'write_file', { path: 'a.txt', content: 'x' })]);
  const approval = await store.requestApproval({
    turnId: turn.id,
    callId: 'c1',
    risk: 'caution',
    meaning: 'Writes a.txt',
  });
  return { store, approval };
}

describe('ApprovalBroker', () => {
  it('ends a wait with the answer another process wrote to the store', async () => {
    const { store, approval } = await pending();
    const broker = new ApprovalBroker(store, new LocalSignals(), 10);
    const waiting = broker.wait(approval.id, 5000, new AbortController().signal);
    await store.answerApproval(approval.id, { kind: 'approve' }, {});
    expect(await waiting).toMatchObject({ kind: 'approved' });
    await store.close();
  });

  it('expires the wait once another process lets go of the write lock it held at the deadline', async () => {
    const { store, approval } = await pending(20);
    const other = new Database(store.path);
    other.exec('BEGIN IMMEDIATE');
    const broker = new ApprovalBroker(store, new LocalSignals(), 10);
    const waiting = broker.wait(approval.id, 30, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 150));
    other.exec('COMMIT');
    other.close();
    expect(await waiting).toEqual({ kind: 'expired' });
    expect((await store.getApproval(approval.id))?.status).toBe('expired');
    await store.close();
  });

  it('rejects the wait, rather than throwing on a timer, when the store fails under it', async () => {
    const { store, approval } = await pending();
    const broker = new ApprovalBroker(store, new LocalSignals(), 10);
    const waiting = broker.wait(approval.id, 5000, new AbortController().signal);
    await store.close();
    await expect(waiting).rejects.toThrow();
  });

  it('rejects the wait when the stop arrives after the store closed', async () => {
    const { store, approval } = await pending();
    const broker = new ApprovalBroker(store, new LocalSignals(), 60_000);
    const stop = new AbortController();
    const waiting = broker.wait(approval.id, 60_000, stop.signal);
    await store.close();
    stop.abort();
    await expect(waiting).rejects.toThrow();
  });

  it('wakes a wait on another store of the same file when the answer comes through a broker sharing its signals', async () => {
    const { store, approval } = await pending();
    const other = openSessionStore({ path: store.path });
    const signals = new LocalSignals();
    // The poll is far off: only the signal can end this wait before the test's own time limit.
    const waiting = new ApprovalBroker(store, signals, 600_000).wait(
      approval.id,
      600_000,
      new AbortController().signal,
    );
    await new ApprovalBroker(other, signals, 600_000).respond(approval.id, { kind: 'deny' });
    expect(await waiting).toMatchObject({ kind: 'denied' });
    await other.close();
    await store.close();
  });
});
