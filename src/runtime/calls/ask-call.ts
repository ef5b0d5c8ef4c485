import type { ApprovalRequest } from '../../core/approval.js';
import type { ApprovalRecord } from '../../core/session-store.js';
import { offeredScope } from '../grants/grant-scope.js';
import { scopedCall, withdrawnNotice } from '../grants/standing-grants.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { ApprovalOutcome } from './approval-broker.js';
import type { PlannedCall } from './planned-call.js';
import type { Refusal } from './refusals.js';

/** One sentence saying what approving a call will do. */
export function approvalMeaning(call: PlannedCall): string {
  const def = call.target.offered?.definition;
  const by = def?.app && def.group?.own !== true ? ` (from ${def.app})` : '';
  const risk = def?.risk === 'destructive' ? ' It can delete or overwrite things.' : '';
  return `Approving runs ${call.tool}${by} once with the arguments shown.${risk}`;
}

/**
 * Puts a call to a person: the request, durable in the store, answered here or from another process,
 * or ended by the timeout or a stop. What "always" would cover is worked out first, shown with the
 * question and kept with it.
 */
export async function askPerson(
  env: TurnEnvironment,
  call: PlannedCall,
): Promise<{ readonly approvalId: string; readonly outcome: ApprovalOutcome }> {
  const request = await putQuestion(env, call);
  const outcome = await env.broker.wait(request.id, env.approval.timeoutMs, env.signal, waitParks(env));
  await env.store.setTurnStatus(env.turnId, 'running', { from: ['waiting_approval'] });
  return { approvalId: request.id, outcome };
}

/**
 * True when a wait for a person may park the turn (where the runtime parks at all): a top-level turn,
 * or a leaf run as a job of its own. A leaf run inside its batch's process is waited for by the batch.
 */
export function waitParks(env: TurnEnvironment): boolean {
  return env.leaf === undefined || env.leaf.parks === true;
}

/** Stores the question about a call (durable, answerable from any process) and tells the host; nothing waits. */
export async function putQuestion(env: TurnEnvironment, call: PlannedCall): Promise<ApprovalRequest> {
  const def = call.target.offered?.definition;
  const always = await offeredScope(scopedCall(env, call));
  const withdrawn = await withdrawnNotice(env, call.tool);
  const request = await env.store.requestApproval({
    turnId: env.turnId,
    callId: call.id,
    risk: def?.risk ?? 'caution',
    meaning: approvalMeaning(call),
    expiresAt: new Date(Date.now() + env.approval.timeoutMs).toISOString(),
    ...(env.leaf ? { leafTitle: env.leaf.title } : {}),
    always,
    ...(withdrawn ? { notice: withdrawn.text } : {}),
  });
  if (withdrawn) await env.store.markGrantsNoticed(withdrawn.grants);
  env.emit({ type: 'approval-request', request });
  return request;
}

/**
 * A leaf's "always for this session" is the person's word about the conversation they answer in: the
 * store grants the leaf's own session, and this holds the grant in the parent session too, which the
 * other leaves of the batch (and later turns there) are covered by.
 */
export async function holdLeafGrant(env: TurnEnvironment, approval: ApprovalRecord): Promise<void> {
  const parent = env.leaf?.parentSessionId;
  if (parent === undefined || approval.status !== 'approved' || approval.scope !== 'session') return;
  if (approval.always === undefined) return;
  await env.store.addGrant({
    tool: approval.tool,
    scope: approval.always,
    sessionId: parent,
    approvalId: approval.id,
  });
}

/**
 * Tells the host how an approval ended, and what it means for the call: undefined when it was approved
 * (it runs), else the refusal in the person's (or the clock's) own words.
 */
export async function approvalRefusal(
  env: TurnEnvironment,
  approvalId: string,
  outcome: ApprovalOutcome,
): Promise<Refusal | undefined> {
  switch (outcome.kind) {
    case 'approved': {
      const always = outcome.record.scope;
      await holdLeafGrant(env, outcome.record);
      env.emit({
        type: 'approval-resolved',
        approvalId,
        decision: always && always !== 'once' ? { kind: 'approve', always } : { kind: 'approve' },
      });
      return undefined;
    }
    case 'denied': {
      const reason = outcome.record.reason ?? '';
      env.emit({
        type: 'approval-resolved',
        approvalId,
        decision: reason ? { kind: 'deny', reason } : { kind: 'deny' },
      });
      return { by: 'user', reason };
    }
    case 'expired':
      env.emit({ type: 'approval-resolved', approvalId, decision: 'expired' });
      return { by: 'timeout', reason: '' };
    case 'cancelled':
      env.emit({ type: 'approval-resolved', approvalId, decision: 'cancelled' });
      return { by: 'stopped', reason: '' };
  }
}
