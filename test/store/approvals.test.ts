import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import type { GrantScope } from '../../src/core/grant-scope.js';
import {
  AlwaysNotOfferedError,
  ApprovalClosedError,
  ApprovalMismatchError,
  StoreConflictError,
  StoreNotFoundError,
} from '../../src/core/store-errors.js';
import { digestOf, folderScopeOf, newCall, openTestStore, turnWithCalls } from './store-fixtures.js';

const ARGS = { path: 'notes/todo.md', content: 'buy milk' };

const NOTES = folderScopeOf('/work/notes');

function waiting(path?: string, always: GrantScope | null = NOTES) {
  const store = openTestStore(path);
  const { session, turn } = turnWithCalls(store, [newCall('c1', 'write_file', ARGS)]);
  const approval = store.requestApproval({
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
  it('records a pending approval copied from the exact call, and the turn waits', () => {
    const { store, session, turn, approval } = waiting();
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
    expect(store.getTurn(turn.id)?.status).toBe('waiting_approval');
    expect(store.getApproval(approval.id)).toEqual(approval);
    expect(store.listApprovals({ status: 'pending' }).map((a) => a.id)).toEqual([approval.id]);
    expect(store.listAudit({ kind: 'approval.requested' })).toHaveLength(1);
  });

  it('refuses a second pending approval for the same call, and one for a call that is not pending', () => {
    const { store, turn, approval } = waiting();
    const again = () =>
      store.requestApproval({ turnId: turn.id, callId: 'c1', risk: 'caution', meaning: 'again' });
    expect(again).toThrow(StoreConflictError);
    expect(again).toThrow(new RegExp(approval.id));
    expect(() =>
      store.requestApproval({ turnId: turn.id, callId: 'zz', risk: 'caution', meaning: 'x' }),
    ).toThrow(StoreNotFoundError);
    expect(() =>
      store.requestApproval({ turnId: turn.id, callId: 'c1', risk: 'scary' as never, meaning: 'x' }),
    ).toThrow(/risk must be one of safe, caution, destructive/);
  });

  it('refuses to ask about a call whose arguments could not be read', () => {
    const store = openTestStore();
    const { turn } = turnWithCalls(store, [
      { id: 'raw', tool: 'grep', wireName: 'grep', rawArguments: '{', digest: 'd' },
    ]);
    expect(() =>
      store.requestApproval({ turnId: turn.id, callId: 'raw', risk: 'safe', meaning: 'x' }),
    ).toThrow(InputError);
  });

  it('approving moves the call to approved, once; a second answer is refused', () => {
    const { store, turn, approval } = waiting();
    const answered = store.answerApproval(
      approval.id,
      { kind: 'approve' },
      { digest: approval.digest, answeredBy: 'cli' },
    );
    expect(answered).toMatchObject({ status: 'approved', scope: 'once', answeredBy: 'cli' });
    expect(answered.answeredAt).toBeDefined();
    expect(store.getToolCall(turn.id, 'c1')?.status).toBe('approved');
    expect(store.listGrants()).toEqual([]);
    expect(() => store.answerApproval(approval.id, { kind: 'deny' })).toThrow(ApprovalClosedError);
    expect(() => store.answerApproval(approval.id, { kind: 'deny' })).toThrow(/already approved/);
    expect(() => store.answerApproval('ap-none', { kind: 'deny' })).toThrow(StoreNotFoundError);
  });

  it('an answer after the deadline closes the approval as expired instead, and the call stays unapproved', () => {
    let clock = Date.parse('2030-01-01T00:00:00.000Z');
    const store = openTestStore(undefined, { now: () => clock });
    const { turn } = turnWithCalls(store, [newCall('c1', 'write_file', ARGS)]);
    const approval = store.requestApproval({
      turnId: turn.id,
      callId: 'c1',
      risk: 'destructive',
      meaning: 'Overwrites notes/todo.md',
      expiresAt: '2030-01-01T00:05:00.000Z',
    });
    clock = Date.parse('2030-01-01T00:05:00.001Z');
    const late = () => store.answerApproval(approval.id, { kind: 'approve' }, { digest: approval.digest });
    expect(late).toThrow(ApprovalClosedError);
    expect(late).toThrow(/expired before it was answered/);
    expect(store.getApproval(approval.id)).toMatchObject({
      status: 'expired',
      answeredAt: '2030-01-01T00:05:00.001Z',
    });
    expect(store.getToolCall(turn.id, 'c1')?.status).toBe('pending');
    expect(store.claimToolCall(turn.id, 'c1')).toBe(false);
    expect(store.listGrants()).toEqual([]);
    expect(store.listAudit({ kind: 'approval.closed' }).map((a) => a.detail.status)).toEqual(['expired']);
    expect(store.listAudit({ kind: 'approval.answered' })).toEqual([]);
  });

  it('refuses an answer bound to a different call, changing nothing', () => {
    const { store, turn, approval } = waiting();
    const other = digestOf('write_file', { ...ARGS, content: 'sell the house' });
    const answer = () => store.answerApproval(approval.id, { kind: 'approve' }, { digest: other });
    expect(answer).toThrow(ApprovalMismatchError);
    expect(answer).toThrow(/different call/);
    expect(store.getApproval(approval.id)?.status).toBe('pending');
    expect(store.getToolCall(turn.id, 'c1')?.status).toBe('pending');
  });

  it('a denial keeps its reason and leaves the call for the runtime to settle', () => {
    const { store, turn, approval } = waiting();
    const denied = store.answerApproval(approval.id, { kind: 'deny', reason: 'not that file' });
    expect(denied).toMatchObject({ status: 'denied', reason: 'not that file' });
    expect(denied.scope).toBeUndefined();
    expect(store.getToolCall(turn.id, 'c1')?.status).toBe('pending');
    expect(store.claimToolCall(turn.id, 'c1')).toBe(false);
    const audit = store.listAudit({ kind: 'approval.answered' });
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

  it('"approve always" adds a standing grant for the session or for good, with the scope the question showed', () => {
    const first = waiting();
    expect(first.approval.always).toEqual(NOTES);
    expect(first.store.getApproval(first.approval.id)?.always).toEqual(NOTES);
    first.store.answerApproval(first.approval.id, { kind: 'approve', always: 'session' });
    expect(first.store.listGrants({ sessionId: first.session.id })).toMatchObject([
      { tool: 'write_file', sessionId: first.session.id, approvalId: first.approval.id, scope: NOTES },
    ]);
    const other = first.store.createSession();
    expect(first.store.listGrants({ sessionId: other.id })).toEqual([]);

    const second = waiting();
    const answered = second.store.answerApproval(second.approval.id, { kind: 'approve', always: 'forever' });
    expect(answered.scope).toBe('forever');
    const elsewhere = second.store.createSession();
    expect(second.store.listGrants({ sessionId: elsewhere.id })).toMatchObject([
      { tool: 'write_file', sessionId: undefined, scope: NOTES },
    ]);
    expect(() =>
      second.store.answerApproval(second.approval.id, { kind: 'approve', always: 'weekly' as never }),
    ).toThrow(/session, forever/);
  });

  it('"always" to a question that showed no scope is refused, changing nothing; yes still answers it', () => {
    const { store, turn, approval } = waiting(undefined, null);
    const always = () => store.answerApproval(approval.id, { kind: 'approve', always: 'session' });
    expect(always).toThrow(AlwaysNotOfferedError);
    expect(always).toThrow(/yes or no only/);
    expect(store.getApproval(approval.id)?.status).toBe('pending');
    expect(store.getToolCall(turn.id, 'c1')?.status).toBe('pending');
    expect(store.listGrants({ allSessions: true })).toEqual([]);
    expect(store.answerApproval(approval.id, { kind: 'approve' }).status).toBe('approved');
  });

  it('keeps the notice a question was asked with', () => {
    const store = openTestStore();
    const { turn } = turnWithCalls(store, [newCall('c1', 'bash', { command: 'ls' })]);
    const asked = store.requestApproval({
      turnId: turn.id,
      callId: 'c1',
      risk: 'destructive',
      meaning: 'Runs bash once',
      notice: 'asked again: a standing permission was withdrawn',
    });
    expect(store.getApproval(asked.id)?.notice).toBe('asked again: a standing permission was withdrawn');
  });

  it('expiry and answer race: whichever lands first wins, the other sees it', () => {
    const { store, approval } = waiting();
    expect(store.closeApproval(approval.id, 'expired', 'no one answered in time')).toBe(true);
    expect(store.getApproval(approval.id)).toMatchObject({
      status: 'expired',
      reason: 'no one answered in time',
    });
    expect(() => store.answerApproval(approval.id, { kind: 'approve' })).toThrow(
      /expired before it was answered/,
    );

    const late = waiting();
    late.store.answerApproval(late.approval.id, { kind: 'approve' });
    expect(late.store.closeApproval(late.approval.id, 'cancelled')).toBe(false);
    expect(late.store.getApproval(late.approval.id)?.status).toBe('approved');
    expect(() => late.store.closeApproval('ap-none', 'expired')).toThrow(StoreNotFoundError);
  });

  it('an answer written by another store instance is what the waiting one reads next', () => {
    const { store: waiter, approval } = waiting();
    const terminal = openTestStore(waiter.path);
    expect(terminal.listApprovals({ status: 'pending' }).map((a) => a.id)).toEqual([approval.id]);
    terminal.answerApproval(approval.id, { kind: 'approve' }, { digest: approval.digest, answeredBy: 'cli' });
    expect(waiter.getApproval(approval.id)).toMatchObject({ status: 'approved', answeredBy: 'cli' });
    expect(waiter.getToolCall(approval.turnId, 'c1')?.status).toBe('approved');
  });

  it('carries the title of a leaf that asks', () => {
    const store = openTestStore();
    const { turn } = turnWithCalls(store, [newCall('c9', 'bash', { cmd: 'ls' })]);
    const asked = store.requestApproval({
      turnId: turn.id,
      callId: 'c9',
      risk: 'destructive',
      meaning: 'Runs ls',
      leafTitle: 'Inbox sweep',
    });
    expect(store.getApproval(asked.id)?.leafTitle).toBe('Inbox sweep');
    expect(store.listApprovals({ turnId: turn.id, status: ['pending', 'approved'] })).toHaveLength(1);
  });
});

describe('approvals when their turn ends', () => {
  it('are cancelled with the turn, so no one is asked about a turn that is over', () => {
    const { store, turn, approval } = waiting();
    expect(store.setTurnStatus(turn.id, 'stopped', { error: 'stopped by the person' })).toBe(true);
    expect(store.getApproval(approval.id)).toMatchObject({
      status: 'cancelled',
      reason: 'the turn ended (stopped)',
    });
    expect(store.listApprovals({ status: 'pending' })).toEqual([]);
    expect(() => store.answerApproval(approval.id, { kind: 'approve' })).toThrow(/already cancelled/);
  });

  it('stay pending while the turn only changes hands', () => {
    const { store, turn, approval } = waiting();
    expect(
      store.setTurnStatus(turn.id, 'waiting_approval', { from: ['waiting_approval'], owner: 'host:9' }),
    ).toBe(true);
    expect(store.getApproval(approval.id)?.status).toBe('pending');
  });
});
