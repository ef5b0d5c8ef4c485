import type { ToolCallRecord } from '../core/session-store.js';
import { answerApproval, holdLeafGrant } from './ask-call.js';
import { type PlannedCall, readCall } from './planned-call.js';
import { refusalResult } from './refusals.js';
import { runCalls } from './run-calls.js';
import { runCall, settleCall } from './settle-call.js';
import type { TurnContext } from './turn-context.js';

/** A stored call as the call runner takes it. */
export function plannedFromRecord(record: ToolCallRecord): PlannedCall {
  return {
    id: record.id,
    wireName: record.wireName,
    tool: record.tool,
    rawArguments: record.rawArguments,
    digest: record.digest,
    record,
    ...(record.arguments ? { args: record.arguments } : {}),
  };
}

/**
 * A stored call never screened, read again from the text the model sent: the store keeps no mark of
 * arguments that could not be read, and such a call must be answered so again, never run with none.
 */
function reread(ctx: TurnContext, call: PlannedCall): PlannedCall {
  const sent = { id: call.id, name: call.wireName, arguments: call.rawArguments };
  const again = readCall(ctx.surface, sent, false, ctx.runtimeTools, ctx.limits.argumentChars);
  return again.unreadable ? { ...call, unreadable: again.unreadable } : call;
}

/** Lets a runtime tool take over its own interrupted call; true when the call is settled now. */
async function resumedByTool(ctx: TurnContext, call: PlannedCall): Promise<boolean> {
  const tool = ctx.runtimeTools.get(call.tool);
  if (!tool?.resume) return false;
  const result = await tool.resume(call.id, ctx);
  const after = await ctx.store.getToolCall(ctx.turnId, call.id);
  if (after && after.status !== 'running') {
    // The tool recorded the result itself: tell the host what the model will read.
    ctx.emit({
      type: 'tool-call-end',
      callId: call.id,
      tool: call.tool,
      content: after.result ?? '',
      isError: after.isError ?? false,
    });
    return true;
  }
  if (!result) return false;
  await settleCall(ctx, call, result, 'done');
  return true;
}

/**
 * Settles the calls a dead process left unfinished, in the model's order: an approval answered while
 * it was gone is acted on, one still pending is waited on again, an approved call runs (exactly once,
 * by its claim), and a call that had already started is never run a second time.
 */
export async function resumeCalls(ctx: TurnContext): Promise<void> {
  const loose = await ctx.store.listToolCalls({
    turnId: ctx.turnId,
    status: ['pending', 'approved', 'running'],
  });
  const approvals = await ctx.store.listApprovals({ turnId: ctx.turnId });
  const fresh: PlannedCall[] = [];
  for (const record of loose) {
    const call = plannedFromRecord(record);
    if (record.status === 'running') {
      if (await resumedByTool(ctx, call)) continue;
      const lost = {
        content:
          `Error: ${call.tool} was started before toolseam stopped, and whether it finished is unknown. ` +
          'Check its effect before calling it again.',
        isError: true,
      };
      await settleCall(ctx, call, lost, 'failed');
      continue;
    }
    const approval = approvals.filter((a) => a.callId === record.id).at(-1);
    // Calls not yet screened run before a later call does, as the model ordered them.
    if (record.status === 'approved') {
      if (fresh.length > 0) await runCalls(ctx, fresh.splice(0));
      // Answered while no process drove the turn: its "always" still reaches the parent session.
      if (approval) await holdLeafGrant(ctx, approval);
      await runCall(ctx, call);
      continue;
    }
    if (!approval) {
      fresh.push(reread(ctx, call));
      continue;
    }
    if (approval.status === 'pending') {
      if (fresh.length > 0) await runCalls(ctx, fresh.splice(0));
      // The request keeps the deadline it was asked with; a restart does not give it a new one.
      const left =
        approval.expiresAt === undefined ? Number.NaN : Date.parse(approval.expiresAt) - Date.now();
      const timeoutMs = Number.isNaN(left) ? ctx.approval.timeoutMs : Math.max(0, left);
      // Past its deadline nobody can answer it any more: it is closed as expired, not asked again.
      const open = timeoutMs > 0;
      if (open) {
        ctx.emit({ type: 'approval-request', request: approval });
        await ctx.store.setTurnStatus(ctx.turnId, 'waiting_approval', { from: ['running'] });
      }
      const outcome = await ctx.broker.wait(approval.id, timeoutMs, ctx.signal);
      if (open) await ctx.store.setTurnStatus(ctx.turnId, 'running', { from: ['waiting_approval'] });
      await answerApproval(ctx, call, approval.id, outcome);
    } else if (approval.status === 'denied') {
      await settleCall(
        ctx,
        call,
        refusalResult(call.tool, { by: 'user', reason: approval.reason ?? '' }),
        'refused',
      );
    } else {
      const by = approval.status === 'expired' ? 'timeout' : 'stopped';
      await settleCall(ctx, call, refusalResult(call.tool, { by, reason: '' }), 'refused');
    }
  }
  if (fresh.length > 0) await runCalls(ctx, fresh);
}
