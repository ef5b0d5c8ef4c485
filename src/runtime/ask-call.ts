import type { ApprovalRecord } from '../core/session-store.js';
import type { ToolResult } from '../core/tool.js';
import { refuseMissingArguments } from '../tools/arguments/refusal-note.js';
import { offeredScope } from './grants/grant-scope.js';
import { scopedCall, withdrawnNotice } from './grants/standing-grants.js';
import type { PlannedCall } from './planned-call.js';
import { refusalResult } from './refusals.js';
import { runCall, settleCall, toolContext } from './settle-call.js';
import type { TurnContext } from './turn-context.js';

/**
 * Preflight: what the call's DECLARED schema requires, then what its tool declares it refuses. A
 * refusal here means nobody is asked; a check that throws or cannot decide refuses nothing.
 */
export async function preflightCall(ctx: TurnContext, call: PlannedCall): Promise<ToolResult | undefined> {
  const offered = ctx.surface.byName.get(call.tool);
  if (!offered) return undefined;
  const args = call.args ?? {};
  const { definition } = offered;
  const missing = refuseMissingArguments(call.tool, args, definition.parameters, offered.parameters, {
    keySpellings: definition.keySpellings === true,
  });
  if (missing) return missing;
  let refused: ToolResult | undefined;
  try {
    refused = await ctx.registry.preflight(call.tool, args, toolContext(ctx, call));
  } catch (error) {
    ctx.logger.log({
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
export function approvalMeaning(ctx: TurnContext, call: PlannedCall): string {
  const def = ctx.surface.byName.get(call.tool)?.definition;
  const by = def?.app && def.group?.own !== true ? ` (from ${def.app})` : '';
  const risk = def?.risk === 'destructive' ? ' It can delete or overwrite things.' : '';
  return `Approving runs ${call.tool}${by} once with the arguments shown.${risk}`;
}

/**
 * A call that needs a person: preflight first (nobody is asked about a call that cannot run), then
 * the request, durable in the store, answered here or from another process, or ended by the timeout
 * or a stop. Approved calls run exactly once.
 */
export async function askAndRun(ctx: TurnContext, call: PlannedCall): Promise<ToolResult> {
  const refused = await preflightCall(ctx, call);
  if (refused) return settleCall(ctx, call, refused, 'refused');
  if (ctx.approval.unattended) {
    return settleCall(ctx, call, refusalResult(call.tool, { by: 'unattended', reason: '' }), 'refused');
  }
  const def = ctx.surface.byName.get(call.tool)?.definition;
  // What "always" would cover is worked out before the question, shown with it and kept with it.
  const always = await offeredScope(scopedCall(ctx, call));
  const withdrawn = await withdrawnNotice(ctx, call.tool);
  const request = await ctx.store.requestApproval({
    turnId: ctx.turnId,
    callId: call.id,
    risk: def?.risk ?? 'caution',
    meaning: approvalMeaning(ctx, call),
    expiresAt: new Date(Date.now() + ctx.approval.timeoutMs).toISOString(),
    ...(ctx.leaf ? { leafTitle: ctx.leaf.title } : {}),
    always,
    ...(withdrawn ? { notice: withdrawn.text } : {}),
  });
  if (withdrawn) await ctx.store.markGrantsNoticed(withdrawn.grants);
  ctx.emit({ type: 'approval-request', request });
  const outcome = await ctx.broker.wait(request.id, ctx.approval.timeoutMs, ctx.signal);
  await ctx.store.setTurnStatus(ctx.turnId, 'running', { from: ['waiting_approval'] });
  return answerApproval(ctx, call, request.id, outcome);
}

/**
 * A leaf's "always for this session" is the person's word about the conversation they answer in: the
 * store grants the leaf's own session, and this holds the grant in the parent session too, which the
 * other leaves of the batch (and later turns there) are covered by.
 */
export async function holdLeafGrant(ctx: TurnContext, approval: ApprovalRecord): Promise<void> {
  const parent = ctx.leaf?.parentSessionId;
  if (parent === undefined || approval.status !== 'approved' || approval.scope !== 'session') return;
  if (approval.always === undefined) return;
  await ctx.store.addGrant({
    tool: approval.tool,
    scope: approval.always,
    sessionId: parent,
    approvalId: approval.id,
  });
}

/** Acts on how an approval ended: run the call, or answer it with the refusal in its own words. */
export async function answerApproval(
  ctx: TurnContext,
  call: PlannedCall,
  approvalId: string,
  outcome: Awaited<ReturnType<TurnContext['broker']['wait']>>,
): Promise<ToolResult> {
  switch (outcome.kind) {
    case 'approved': {
      const always = outcome.record.scope;
      await holdLeafGrant(ctx, outcome.record);
      ctx.emit({
        type: 'approval-resolved',
        approvalId,
        decision: always && always !== 'once' ? { kind: 'approve', always } : { kind: 'approve' },
      });
      return runCall(ctx, call);
    }
    case 'denied': {
      const reason = outcome.record.reason ?? '';
      ctx.emit({
        type: 'approval-resolved',
        approvalId,
        decision: reason ? { kind: 'deny', reason } : { kind: 'deny' },
      });
      return settleCall(ctx, call, refusalResult(call.tool, { by: 'user', reason }), 'refused');
    }
    case 'expired':
      ctx.emit({ type: 'approval-resolved', approvalId, decision: 'expired' });
      return settleCall(ctx, call, refusalResult(call.tool, { by: 'timeout', reason: '' }), 'refused');
    case 'cancelled':
      ctx.emit({ type: 'approval-resolved', approvalId, decision: 'cancelled' });
      return settleCall(ctx, call, refusalResult(call.tool, { by: 'stopped', reason: '' }), 'refused');
  }
}
