import { describe, expect, it } from 'vitest';
import { newCall, turnWithCalls } from '../record-fixtures.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Lists keep the order records were written in (whatever the clock does), and any mix of filters answers alike. */
export function listCases(subject: StoreSubject): void {
  /** A store whose clock is set by hand, starting at 00:10 and able to step back. */
  async function storeWithClock() {
    const clock = { now: Date.parse('2030-01-01T00:10:00.000Z') };
    const store = await subject.open({ now: () => clock.now });
    return { store, clock };
  }

  describe('"oldest first" lists keep the order records were written, even when the clock steps back', () => {
    it('turns: the last one listed is the turn started last', async () => {
      const { store, clock } = await storeWithClock();
      const s = await store.createSession();
      const first = await store.startTurn({ sessionId: s.id, userText: 'one' });
      await store.setTurnStatus(first.id, 'done');
      clock.now -= 60_000;
      const second = await store.startTurn({ sessionId: s.id, userText: 'two' });
      expect((await store.listTurns({ sessionId: s.id })).map((t) => t.id)).toEqual([first.id, second.id]);
      expect((await store.listTurns({ sessionId: s.id })).at(-1)?.id).toBe(second.id);
    });

    it('approvals, in the order they were asked', async () => {
      const { store, clock } = await storeWithClock();
      const s = await store.createSession();
      const turn = await store.startTurn({ sessionId: s.id, userText: 'tidy' });
      const calls = [newCall('c1', 'write_file', { path: 'a' }), newCall('c2', 'write_file', { path: 'b' })];
      await store.recordModelReply(turn.id, { content: '', calls });
      const ask = (callId: string) =>
        store.requestApproval({ turnId: turn.id, callId, risk: 'caution', meaning: `writes ${callId}` });
      const a1 = await ask('c1');
      clock.now -= 60_000;
      const a2 = await ask('c2');
      expect((await store.listApprovals({ turnId: turn.id })).map((a) => a.id)).toEqual([a1.id, a2.id]);
    });

    it('batches and tasks, in the order they were made', async () => {
      const { store, clock } = await storeWithClock();
      const s = await store.createSession();
      const leaves = [{ title: 'Inbox', contract: { task: 'sweep' } }];
      const b1 = await store.createBatch({ parentSessionId: s.id, leaves });
      const t1 = await store.createTask({ title: 'first' });
      clock.now -= 60_000;
      const b2 = await store.createBatch({ parentSessionId: s.id, leaves });
      const t2 = await store.createTask({ title: 'second' });
      expect((await store.listBatches({ parentSessionId: s.id })).map((b) => b.id)).toEqual([b1.id, b2.id]);
      expect((await store.listTasks()).map((t) => t.id)).toEqual([t1.id, t2.id]);
    });
  });

  describe('lists filtered', () => {
    it('still lists by any mix of filters, or none, with the same answers', async () => {
      const store = await subject.open();
      await turnWithCalls(store, [newCall('c1', 'read_file', { path: 'old.txt' })], 'An older chat');
      const { session, turn } = await turnWithCalls(store, [
        newCall('c1', 'read_file', { path: 'a.txt' }),
        newCall('c2', 'bash', { command: 'ls' }),
      ]);
      const [sessionId, turnId] = [session.id, turn.id];
      expect((await store.listToolCalls({ turnId })).map((c) => c.id)).toEqual(['c1', 'c2']);
      expect((await store.listToolCalls({ sessionId, turnId, status: 'pending' })).map((c) => c.id)).toEqual([
        'c1',
        'c2',
      ]);
      expect(await store.listToolCalls({ status: 'done' })).toEqual([]);
      expect((await store.listToolCalls({})).map((c) => c.id)).toEqual(['c1', 'c1', 'c2']);
      expect((await store.listTurns({ sessionId })).map((t) => t.id)).toEqual([turnId]);
      expect(await store.listTurns({ status: 'running' })).toHaveLength(2);
      expect(await store.listTurns()).toHaveLength(2);
      const asked = await store.requestApproval({
        turnId,
        callId: 'c2',
        risk: 'caution',
        meaning: 'Runs ls.',
      });
      expect(await store.listApprovals({ turnId, status: ['pending', 'expired'] })).toEqual([asked]);
      expect(await store.listApprovals({ sessionId, status: 'approved' })).toEqual([]);
      expect(await store.listApprovals()).toEqual([asked]);
      expect(await store.listTurns({ status: ['waiting_approval', 'running'] })).toHaveLength(2);
      expect(await store.listTurns({ status: [] })).toEqual([]);
    });
  });
}
