import type { ApprovalRecord } from '../../core/session-store.js';
import type { ToolResult } from '../../core/tool.js';
import { refuseMissingArguments } from '../../tools/refusal-note.js';
import { offeredScope } from '../grants/grant-scope.js';
import { scopedCall, withdrawnNotice } from '../grants/standing-grants.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import type { ApprovalOutcome } from './approval-broker.js';
import type { PlannedCall } from './planned-call.js';
import { refusalResult } from './refusals.js';
import { runCall, settleCall, toolContext } from './settle-call.js';

/**
 * Preflight: what the call's DECLARED schema requires, then what its tool declares it refuses. A
 * refusal here means nobody is asked; a check that throws or cannot decide refuses nothing.
 */
export async function preflightCall(
  env: TurnEnvironment,
  state: TurnState,
  call: PlannedCall,
): Promise<ToolResult | undefined> {
  const offered = env.surface.byName.get(call.tool);
  if (!offered) return undefined;
  const args = call.args ?? {};
  const { definition } = offered;
  const missing = refuseMissingArguments(call.tool, args, definition.parameters, offered.parameters, {
    keySpellings: definition.keySpellings === true,
  });
  if (missing) return missing;
  let refused: ToolResult | undefined;
  try {
    refused = await env.registry.preflight(call.tool, args, toolContext(env, state, call));
  } catch (error) {
    env.logger.log({
      level: 'warn',
      scope: 'runtime',
      message: `the pre-flight check of ${call.tool} failed, so the call is put to the person: ${(error as Error).message}`,
    });
    return undefined;
  }
  if (!refused?.isError) return undefined;
  return { ...refused, notRun: 'refused_by_tool', refusedBy: 'preflight' };
}

/** One sentence saying what approving a call will do. */
export function approvalMeaning(env: TurnEnvironment, call: PlannedCall): string {
  const def = env.surface.byName.get(call.tool)?.definition;
  const by = def?.app && def.group?.own !== true ? ` (from ${def.app})` : '';
  const risk = def?.risk === 'destructive' ? ' It can delete or overwrite things.' : '';
  return `Approving runs ${call.tool}${by} once with the arguments shown.${risk}`;
}

/**
 * A call that needs a person: preflight first (nobody is asked about a call that cannot run), then
 * the request, durable in the store, answered here or from another process, or ended by the timeout
 * or a stop. Approved calls run exactly once.
 */
export async function askAndRun(
  env: TurnEnvironment,
  state: TurnState,
  call: PlannedCall,
): Promise<ToolResult> {
  const refused = await preflightCall(env, state, call);
  if (refused) return settleCall(env, call, refused, 'refused');
  if (env.approval.unattended) {
    return settleCall(env, call, refusalResult(call.tool, { by: 'unattended', reason: '' }), 'refused');
  }
  const def = env.surface.byName.get(call.tool)?.definition;
  // What "always" would cover is worked out before the question, shown with it and kept with it.
  const always = await offeredScope(scopedCall(env, call));
  const withdrawn = withdrawnNotice(env, call.tool);
  const request = env.store.requestApproval({
    turnId: env.turnId,
    callId: call.id,
    risk: def?.risk ?? 'caution',
    meaning: approvalMeaning(env, call),
    expiresAt: new Date(Date.now() + env.approval.timeoutMs).toISOString(),
    ...(env.leaf ? { leafTitle: env.leaf.title } : {}),
    always,
    ...(withdrawn ? { notice: withdrawn.text } : {}),
  });
  if (withdrawn) env.store.markGrantsNoticed(withdrawn.grants);
  env.emit({ type: 'approval-request', request });
  const outcome = await env.broker.wait(request.id, env.approval.timeoutMs, env.signal);
  env.store.setTurnStatus(env.turnId, 'running', { from: ['waiting_approval'] });
  return answerApproval(env, state, call, request.id, outcome);
}

/**
 * A leaf's "always for this session" is the person's word about the conversation they answer in: the
 * store grants the leaf's own session, and this holds the grant in the parent session too, which the
 * other leaves of the batch (and later turns there) are covered by.
 */
export function holdLeafGrant(env: TurnEnvironment, approval: ApprovalRecord): void {
  const parent = env.leaf?.parentSessionId;
  if (parent === undefined || approval.status !== 'approved' || approval.scope !== 'session') return;
  if (approval.always === undefined) return;
  env.store.addGrant({
    tool: approval.tool,
    scope: approval.always,
    sessionId: parent,
    approvalId: approval.id,
  });
}

/** Acts on how an approval ended: run the call, or answer it with the refusal in its own words. */
export async function answerApproval(
  env: TurnEnvironment,
  state: TurnState,
  call: PlannedCall,
  approvalId: string,
  outcome: ApprovalOutcome,
): Promise<ToolResult> {
  switch (outcome.kind) {
    case 'approved': {
      const always = outcome.record.scope;
      holdLeafGrant(env, outcome.record);
      env.emit({
        type: 'approval-resolved',
        approvalId,
        decision: always && always !== 'once' ? { kind: 'approve', always } : { kind: 'approve' },
      });
      return runCall(env, state, call);
    }
    case 'denied': {
      const reason = outcome.record.reason ?? '';
      env.emit({
        type: 'approval-resolved',
        approvalId,
        decision: reason ? { kind: 'deny', reason } : { kind: 'deny' },
      });
      return settleCall(env, call, refusalResult(call.tool, { by: 'user', reason }), 'refused');
    }
    case 'expired':
      env.emit({ type: 'approval-resolved', approvalId, decision: 'expired' });
      return settleCall(env, call, refusalResult(call.tool, { by: 'timeout', reason: '' }), 'refused');
    case 'cancelled':
      env.emit({ type: 'approval-resolved', approvalId, decision: 'cancelled' });
      return settleCall(env, call, refusalResult(call.tool, { by: 'stopped', reason: '' }), 'refused');
  }
}
