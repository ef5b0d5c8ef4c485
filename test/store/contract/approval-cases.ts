import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import type { GrantScope } from '../../../src/core/grant-scope.js';
import {
  AlwaysNotOfferedError,
  ApprovalClosedError,
  ApprovalMismatchError,
  StoreConflictError,
  StoreNotFoundError,
} from '../../../src/core/store-errors.js';
import { digestOf, folderScopeOf, newCall, turnWithCalls } from '../record-fixtures.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Approvals: asked for a pending call, answered once (a second answer, a late one, one bound to another call refused), closed, and answered from another connection. */
export function approvalCases(subject: StoreSubject): void {
  const ARGS = { path: 'notes/todo.md', content: 'buy milk' };

  const NOTES = folderScopeOf('/work/notes');

  async function waiting(always: GrantScope | null = NOTES) {
    const store = await subject.open();
    const { session, turn } = await turnWithCalls(store, [newCall('c1', 'write_file', ARGS)]);
    const approval = await store.requestApproval({
      turnId: turn.id,
      callId: 'c1',
      risk: 'caution',
      meaning: 'Overwrites notes/todo.md',
      expiresAt: '2030-01-01T00:05:00.000Z',
      ...(always === null ? {} : { always }),
    });
    return { store, session, turn, approval };
  }

  describe('approvals', () => {
    it('records a pending approval copied from the exact call, and the turn waits', async () => {
      const { store, session, turn, approval } = await waiting();
      expect(approval).toMatchObject({
        sessionId: session.id,
        turnId: turn.id,
        callId: 'c1',
        tool: 'write_file',
        arguments: ARGS,
        digest: digestOf('write_file', ARGS),
        risk: 'caution',
        meaning: 'Overwrites notes/todo.md',
        status: 'pending',
        expiresAt: '2030-01-01T00:05:00.000Z',
      });
      expect(approval.id).toMatch(/^ap-/);
      expect(approval.leafTitle).toBeUndefined();
      expect((await store.getTurn(turn.id))?.status).toBe('waiting_approval');
      expect(await store.getApproval(approval.id)).toEqual(approval);
      expect((await store.listApprovals({ status: 'pending' })).map((a) => a.id)).toEqual([approval.id]);
      expect(await store.listAudit({ kind: 'approval.requested' })).toHaveLength(1);
    });

    it('refuses a second pending approval for the same call, and one for a call that is not pending', async () => {
      const { store, turn, approval } = await waiting();
      const again = () =>
        store.requestApproval({ turnId: turn.id, callId: 'c1', risk: 'caution', meaning: 'again' });
      await expect(again()).rejects.toThrow(StoreConflictError);
      await expect(again()).rejects.toThrow(new RegExp(approval.id));
      await expect(
        store.requestApproval({ turnId: turn.id, callId: 'zz', risk: 'caution', meaning: 'x' }),
      ).rejects.toThrow(StoreNotFoundError);
      await expect(
        store.requestApproval({ turnId: turn.id, callId: 'c1', risk: 'scary' as never, meaning: 'x' }),
      ).rejects.toThrow(/risk must be one of safe, caution, destructive/);
    });

    it('refuses to ask about a call whose arguments could not be read', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, [
        { id: 'raw', tool: 'grep', wireName: 'grep', rawArguments: '{', digest: 'd' },
      ]);
      await expect(
        store.requestApproval({ turnId: turn.id, callId: 'raw', risk: 'safe', meaning: 'x' }),
      ).rejects.toThrow(InputError);
    });

    it('approving moves the call to approved, once; a second answer is refused', async () => {
      const { store, turn, approval } = await waiting();
      const answered = await store.answerApproval(
        approval.id,
        { kind: 'approve' },
        { digest: approval.digest, answeredBy: 'cli' },
      );
      expect(answered).toMatchObject({ status: 'approved', scope: 'once', answeredBy: 'cli' });
      expect(answered.answeredAt).toBeDefined();
      expect((await store.getToolCall(turn.id, 'c1'))?.status).toBe('approved');
      expect(await store.listGrants()).toEqual([]);
      await expect(store.answerApproval(approval.id, { kind: 'deny' })).rejects.toThrow(ApprovalClosedError);
      await expect(store.answerApproval(approval.id, { kind: 'deny' })).rejects.toThrow(/already approved/);
      await expect(store.answerApproval('ap-none', { kind: 'deny' })).rejects.toThrow(StoreNotFoundError);
    });

    it('an answer after the deadline closes the approval as expired instead, and the call stays unapproved', async () => {
      let clock = Date.parse('2030-01-01T00:00:00.000Z');
      const store = await subject.open({ now: () => clock });
      const { turn } = await turnWithCalls(store, [newCall('c1', 'write_file', ARGS)]);
      const approval = await store.requestApproval({
        turnId: turn.id,
        callId: 'c1',
        risk: 'destructive',
        meaning: 'Overwrites notes/todo.md',
        expiresAt: '2030-01-01T00:05:00.000Z',
      });
      clock = Date.parse('2030-01-01T00:05:00.001Z');
      const late = () => store.answerApproval(approval.id, { kind: 'approve' }, { digest: approval.digest });
      await expect(late()).rejects.toThrow(ApprovalClosedError);
      await expect(late()).rejects.toThrow(/expired before it was answered/);
      expect(await store.getApproval(approval.id)).toMatchObject({
        status: 'expired',
        answeredAt: '2030-01-01T00:05:00.001Z',
      });
      expect((await store.getToolCall(turn.id, 'c1'))?.status).toBe('pending');
      expect(await store.claimToolCall(turn.id, 'c1')).toBe(false);
      expect(await store.listGrants()).toEqual([]);
      expect((await store.listAudit({ kind: 'approval.closed' })).map((a) => a.detail.status)).toEqual([
        'expired',
      ]);
      expect(await store.listAudit({ kind: 'approval.answered' })).toEqual([]);
    });

    it('refuses an answer bound to a different call, changing nothing', async () => {
      const { store, turn, approval } = await waiting();
      const other = digestOf('write_file', { ...ARGS, content: 'sell the house' });
      const answer = () => store.answerApproval(approval.id, { kind: 'approve' }, { digest: other });
      await expect(answer()).rejects.toThrow(ApprovalMismatchError);
      await expect(answer()).rejects.toThrow(/different call/);
      expect((await store.getApproval(approval.id))?.status).toBe('pending');
      expect((await store.getToolCall(turn.id, 'c1'))?.status).toBe('pending');
    });

    it('a denial keeps its reason and leaves the call for the runtime to settle', async () => {
      const { store, turn, approval } = await waiting();
      const denied = await store.answerApproval(approval.id, { kind: 'deny', reason: 'not that file' });
      expect(denied).toMatchObject({ status: 'denied', reason: 'not that file' });
      expect(denied.scope).toBeUndefined();
      expect((await store.getToolCall(turn.id, 'c1'))?.status).toBe('pending');
      expect(await store.claimToolCall(turn.id, 'c1')).toBe(false);
      const audit = await store.listAudit({ kind: 'approval.answered' });
      expect(audit.map((a) => a.detail)).toEqual([
        {
          approvalId: approval.id,
          callId: 'c1',
          tool: 'write_file',
          status: 'denied',
          reason: 'not that file',
        },
      ]);
    });

    it('"approve always" adds a standing grant for the session or for good, with the scope the question showed', async () => {
      const first = await waiting();
      expect(first.approval.always).toEqual(NOTES);
      expect((await first.store.getApproval(first.approval.id))?.always).toEqual(NOTES);
      await first.store.answerApproval(first.approval.id, { kind: 'approve', always: 'session' });
      expect(await first.store.listGrants({ sessionId: first.session.id })).toMatchObject([
        { tool: 'write_file', sessionId: first.session.id, approvalId: first.approval.id, scope: NOTES },
      ]);
      const other = await first.store.createSession();
      expect(await first.store.listGrants({ sessionId: other.id })).toEqual([]);

      const second = await waiting();
      const answered = await second.store.answerApproval(second.approval.id, {
        kind: 'approve',
        always: 'forever',
      });
      expect(answered.scope).toBe('forever');
      const elsewhere = await second.store.createSession();
      expect(await second.store.listGrants({ sessionId: elsewhere.id })).toMatchObject([
        { tool: 'write_file', sessionId: undefined, scope: NOTES },
      ]);
      await expect(
        second.store.answerApproval(second.approval.id, { kind: 'approve', always: 'weekly' as never }),
      ).rejects.toThrow(/session, forever/);
    });

    it('"always" to a question that showed no scope is refused, changing nothing; yes still answers it', async () => {
      const { store, turn, approval } = await waiting(null);
      const always = () => store.answerApproval(approval.id, { kind: 'approve', always: 'session' });
      await expect(always()).rejects.toThrow(AlwaysNotOfferedError);
      await expect(always()).rejects.toThrow(/yes or no only/);
      expect((await store.getApproval(approval.id))?.status).toBe('pending');
      expect((await store.getToolCall(turn.id, 'c1'))?.status).toBe('pending');
      expect(await store.listGrants({ allSessions: true })).toEqual([]);
      expect((await store.answerApproval(approval.id, { kind: 'approve' })).status).toBe('approved');
    });

    it('keeps the notice a question was asked with', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, [newCall('c1', 'bash', { command: 'ls' })]);
      const asked = await store.requestApproval({
        turnId: turn.id,
        callId: 'c1',
        risk: 'destructive',
        meaning: 'Runs bash once',
        notice: 'asked again: a standing permission was withdrawn',
      });
      expect((await store.getApproval(asked.id))?.notice).toBe(
        'asked again: a standing permission was withdrawn',
      );
    });

    it('expiry and answer race: whichever lands first wins, the other sees it', async () => {
      const { store, approval } = await waiting();
      expect(await store.closeApproval(approval.id, 'expired', 'no one answered in time')).toBe(true);
      expect(await store.getApproval(approval.id)).toMatchObject({
        status: 'expired',
        reason: 'no one answered in time',
      });
      await expect(store.answerApproval(approval.id, { kind: 'approve' })).rejects.toThrow(
        /expired before it was answered/,
      );

      const late = await waiting();
      await late.store.answerApproval(late.approval.id, { kind: 'approve' });
      expect(await late.store.closeApproval(late.approval.id, 'cancelled')).toBe(false);
      expect((await late.store.getApproval(late.approval.id))?.status).toBe('approved');
      await expect(late.store.closeApproval('ap-none', 'expired')).rejects.toThrow(StoreNotFoundError);
    });

    it('an answer written by another store instance is what the waiting one reads next', async () => {
      const { store: waiter, approval } = await waiting();
      const terminal = await subject.reopen(waiter);
      expect((await terminal.listApprovals({ status: 'pending' })).map((a) => a.id)).toEqual([approval.id]);
      await terminal.answerApproval(
        approval.id,
        { kind: 'approve' },
        { digest: approval.digest, answeredBy: 'cli' },
      );
      expect(await waiter.getApproval(approval.id)).toMatchObject({ status: 'approved', answeredBy: 'cli' });
      expect((await waiter.getToolCall(approval.turnId, 'c1'))?.status).toBe('approved');
    });

    it('carries the title of a leaf that asks', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, [newCall('c9', 'bash', { cmd: 'ls' })]);
      const asked = await store.requestApproval({
        turnId: turn.id,
        callId: 'c9',
        risk: 'destructive',
        meaning: 'Runs ls',
        leafTitle: 'Inbox sweep',
      });
      expect((await store.getApproval(asked.id))?.leafTitle).toBe('Inbox sweep');
      expect(await store.listApprovals({ turnId: turn.id, status: ['pending', 'approved'] })).toHaveLength(1);
    });
  });

  describe('approvals when their turn ends', () => {
    it('are cancelled with the turn, so no one is asked about a turn that is over', async () => {
      const { store, turn, approval } = await waiting();
      expect(await store.setTurnStatus(turn.id, 'stopped', { error: 'stopped by the person' })).toBe(true);
      expect(await store.getApproval(approval.id)).toMatchObject({
        status: 'cancelled',
        reason: 'the turn ended (stopped)',
      });
      expect(await store.listApprovals({ status: 'pending' })).toEqual([]);
      await expect(store.answerApproval(approval.id, { kind: 'approve' })).rejects.toThrow(
        /already cancelled/,
      );
    });

    it('stay pending while the turn only changes hands', async () => {
      const { store, turn, approval } = await waiting();
      expect(
        await store.setTurnStatus(turn.id, 'waiting_approval', {
          from: ['waiting_approval'],
          owner: 'host:9',
        }),
      ).toBe(true);
      expect((await store.getApproval(approval.id))?.status).toBe('pending');
    });
  });
}
