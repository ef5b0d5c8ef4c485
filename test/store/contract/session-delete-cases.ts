import { describe, expect, it } from 'vitest';
import { StoreConflictError } from '../../../src/core/store-errors.js';
import { folderScopeOf, newCall, turnWithCalls } from '../record-fixtures.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Deleting a session: everything stored for it goes, its children with it, and an unfinished turn refuses it. */
export function sessionDeleteCases(subject: StoreSubject): void {
  describe('deleting a session', () => {
    async function busySession() {
      const store = await subject.open();
      const { session, turn } = await turnWithCalls(store, [
        newCall('c1', 'write_file', { path: 'a.md' }),
        newCall('c2', 'read_file', { path: 'b.md' }),
      ]);
      const approval = await store.requestApproval({
        turnId: turn.id,
        callId: 'c1',
        risk: 'caution',
        meaning: 'writes a.md',
      });
      await store.addGrant({ tool: 'read_file', scope: folderScopeOf('/w'), sessionId: session.id });
      const everywhere = await store.addGrant({ tool: 'read_file', scope: folderScopeOf('/x') });
      const memory = await store.saveMemory({ text: 'likes tea', sessionId: session.id });
      const other = await store.createSession({ title: 'kept' });
      await store.startTurn({ sessionId: other.id, userText: 'hello' });
      return { store, session, turn, approval, everywhere, memory, other };
    }

    it('is refused while a turn of it is unfinished and not named abandoned, deleting nothing', async () => {
      const { store, session, turn } = await busySession();
      const refused = store.deleteSession(session.id);
      await expect(refused).rejects.toThrow(StoreConflictError);
      await expect(refused).rejects.toMatchObject({ kind: 'turn', id: turn.id, status: 'waiting_approval' });
      expect(await store.getSession(session.id)).toBeDefined();
      expect(await store.listMessages(session.id)).toHaveLength(2);
    });

    it('deletes the session, its turns, messages, calls, approvals and grants; closes pending approvals first; keeps the rest', async () => {
      const { store, session, turn, approval, everywhere, memory, other } = await busySession();
      expect(await store.deleteSession(session.id, { abandonedTurns: [turn.id] })).toEqual([session.id]);
      expect(await store.getSession(session.id)).toBeUndefined();
      expect(await store.getTurn(turn.id)).toBeUndefined();
      expect(await store.listMessages(session.id)).toEqual([]);
      expect(await store.listToolCalls({ sessionId: session.id })).toEqual([]);
      expect(await store.getApproval(approval.id)).toBeUndefined();
      expect((await store.listGrants({ sessionId: session.id })).map((g) => g.id)).toEqual([everywhere.id]);
      // the trail keeps what happened: the open question was cancelled, then the session deleted
      const closed = await store.listAudit({ kind: 'approval.closed' });
      expect(closed.map((a) => [a.detail['approvalId'], a.detail['status']])).toEqual([
        [approval.id, 'cancelled'],
      ]);
      const deleted = await store.listAudit({ kind: 'session.deleted' });
      expect(deleted.map((a) => a.detail)).toEqual([{ sessions: [session.id], abandonedTurns: [turn.id] }]);
      // what outlives a session: memories (without it), other sessions
      expect((await store.listMemories()).map((m) => [m.id, m.sessionId])).toEqual([[memory.id, undefined]]);
      expect((await store.listSessions()).map((s) => s.id)).toEqual([other.id]);
      expect(await store.listMessages(other.id)).toHaveLength(1);
      expect(await store.deleteSession(session.id)).toEqual([]);
    });

    it('takes the child sessions its subagent batches ran with it', async () => {
      const store = await subject.open();
      const parent = await store.createSession();
      const turn = await store.startTurn({ sessionId: parent.id, userText: 'fan out' });
      await store.setTurnStatus(turn.id, 'done');
      const batch = await store.createBatch({
        parentSessionId: parent.id,
        turnId: turn.id,
        leaves: [{ title: 'one', contract: { task: 'x' } }],
      });
      const child = await store.createSession();
      await store.claimLeaf(batch.leaves[0]!.id, child.id);
      const childTurn = await store.startTurn({ sessionId: child.id, userText: 'x' });
      await expect(store.deleteSession(parent.id)).rejects.toMatchObject({ id: childTurn.id });
      await store.setTurnStatus(childTurn.id, 'done');
      expect((await store.deleteSession(parent.id)).sort()).toEqual([child.id, parent.id].sort());
      expect(await store.listSessions()).toEqual([]);
      expect(await store.getBatch(batch.id)).toBeUndefined();
    });
  });
}
