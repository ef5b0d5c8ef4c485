import { describe, expect, it } from 'vitest';
import { newCall, openTestStore } from './store-fixtures.js';

/** A store whose clock is set by hand, starting at 00:10 and able to step back. */
function storeWithClock() {
  const clock = { now: Date.parse('2030-01-01T00:10:00.000Z') };
  const store = openTestStore(undefined, { now: () => clock.now });
  return { store, clock };
}

describe('"oldest first" lists keep the order records were written, even when the clock steps back', () => {
  it('turns: the last one listed is the turn started last', () => {
    const { store, clock } = storeWithClock();
    const s = store.createSession();
    const first = store.startTurn({ sessionId: s.id, userText: 'one' });
    store.setTurnStatus(first.id, 'done');
    clock.now -= 60_000;
    const second = store.startTurn({ sessionId: s.id, userText: 'two' });
    expect(store.listTurns({ sessionId: s.id }).map((t) => t.id)).toEqual([first.id, second.id]);
    expect(store.listTurns({ sessionId: s.id }).at(-1)?.id).toBe(second.id);
  });

  it('approvals, in the order they were asked', () => {
    const { store, clock } = storeWithClock();
    const s = store.createSession();
    const turn = store.startTurn({ sessionId: s.id, userText: 'tidy' });
    const calls = [newCall('c1', 'write_file', { path: 'a' }), newCall('c2', 'write_file', { path: 'b' })];
    store.recordModelReply(turn.id, { content: '', calls });
    const ask = (callId: string) =>
      store.requestApproval({ turnId: turn.id, callId, risk: 'caution', meaning: `writes ${callId}` });
    const a1 = ask('c1');
    clock.now -= 60_000;
    const a2 = ask('c2');
    expect(store.listApprovals({ turnId: turn.id }).map((a) => a.id)).toEqual([a1.id, a2.id]);
  });

  it('batches and tasks, in the order they were made', () => {
    const { store, clock } = storeWithClock();
    const s = store.createSession();
    const leaves = [{ title: 'Inbox', contract: { task: 'sweep' } }];
    const b1 = store.createBatch({ parentSessionId: s.id, leaves });
    const t1 = store.createTask({ title: 'first' });
    clock.now -= 60_000;
    const b2 = store.createBatch({ parentSessionId: s.id, leaves });
    const t2 = store.createTask({ title: 'second' });
    expect(store.listBatches({ parentSessionId: s.id }).map((b) => b.id)).toEqual([b1.id, b2.id]);
    expect(store.listTasks().map((t) => t.id)).toEqual([t1.id, t2.id]);
  });
});
