import type { ToolCallRecord } from '../../core/session-store.js';
import { holdLeafGrant, waitParks } from '../calls/ask-call.js';
import { afterApproval, invokeAfterWait } from '../calls/call-path.js';
import { type PlannedCall, readCall } from '../calls/planned-call.js';
import { refusalResult } from '../calls/refusals.js';
import { runCalls } from '../calls/run-calls.js';
import { settleCall } from '../calls/settle-call.js';
import { targetNamed } from '../calls/targets/target-sources.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';

/** A stored call as the call runner takes it (its tool found by the real name it was stored under). */
export function plannedFromRecord(env: TurnEnvironment, record: ToolCallRecord): PlannedCall {
  return {
    id: record.id,
    wireName: record.wireName,
    tool: record.tool,
    target: targetNamed(env, record.tool),
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
function reread(env: TurnEnvironment, call: PlannedCall): PlannedCall {
  const sent = { id: call.id, name: call.wireName, arguments: call.rawArguments };
  const again = readCall(env, sent, false);
  return again.unreadable ? { ...call, unreadable: again.unreadable } : call;
}

/** Lets a runtime tool take over its own interrupted call; true when the call is settled now. */
async function resumedByTool(env: TurnEnvironment, state: TurnState, call: PlannedCall): Promise<boolean> {
  if (!call.target.resume) return false;
  const result = await call.target.resume({ env, state, id: call.id });
  const after = await env.store.getToolCall(env.turnId, call.id);
  if (after && after.status !== 'running') {
    // The tool recorded the result itself: tell the host what the model will read.
    env.emit({
      type: 'tool-call-end',
      callId: call.id,
      tool: call.tool,
      content: after.result ?? '',
      isError: after.isError ?? false,
    });
    return true;
  }
  if (!result) return false;
  await settleCall(env, call, result, 'done');
  return true;
}

/**
 * Settles the calls a dead process left unfinished, in the model's order: an approval answered while
 * it was gone is acted on, one still pending is waited on again, an approved call runs (exactly once,
 * by its claim), and a call that had already started is never run a second time.
 */
export async function resumeCalls(env: TurnEnvironment, state: TurnState): Promise<void> {
  const loose = await env.store.listToolCalls({
    turnId: env.turnId,
    status: ['pending', 'approved', 'running'],
  });
  const approvals = await env.store.listApprovals({ turnId: env.turnId });
  const fresh: PlannedCall[] = [];
  for (const record of loose) {
    const call = plannedFromRecord(env, record);
    if (record.status === 'running') {
      if (await resumedByTool(env, state, call)) continue;
      const lost = {
        content:
          `Error: ${call.tool} was started before toolseam stopped, and whether it finished is unknown. ` +
          'Check its effect before calling it again.',
        isError: true,
      };
      await settleCall(env, call, lost, 'failed');
      continue;
    }
    const approval = approvals.filter((a) => a.callId === record.id).at(-1);
    // Calls not yet screened run before a later call does, as the model ordered them.
    if (record.status === 'approved') {
      if (fresh.length > 0) await runCalls(env, state, fresh.splice(0));
      // Answered while no process drove the turn: its "always" still reaches the parent session.
      if (approval) await holdLeafGrant(env, approval);
      await invokeAfterWait(env, state, call);
      continue;
    }
    if (!approval) {
      fresh.push(reread(env, call));
      continue;
    }
    if (approval.status === 'pending') {
      if (fresh.length > 0) await runCalls(env, state, fresh.splice(0));
      // The request keeps the deadline it was asked with; a restart does not give it a new one.
      const left =
        approval.expiresAt === undefined ? Number.NaN : Date.parse(approval.expiresAt) - Date.now();
      const timeoutMs = Number.isNaN(left) ? env.approval.timeoutMs : Math.max(0, left);
      // Past its deadline nobody can answer it any more: it is closed as expired, not asked again.
      const open = timeoutMs > 0;
      if (open) {
        env.emit({ type: 'approval-request', request: approval });
        await env.store.setTurnStatus(env.turnId, 'waiting_approval', { from: ['running'] });
      }
      const outcome = await env.broker.wait(approval.id, timeoutMs, env.signal, waitParks(env));
      if (open) await env.store.setTurnStatus(env.turnId, 'running', { from: ['waiting_approval'] });
      await afterApproval(env, state, call, approval.id, outcome);
    } else if (approval.status === 'denied') {
      await settleCall(
        env,
        call,
        refusalResult(call.tool, { by: 'user', reason: approval.reason ?? '' }),
        'refused',
      );
    } else {
      const by = approval.status === 'expired' ? 'timeout' : 'stopped';
      await settleCall(env, call, refusalResult(call.tool, { by, reason: '' }), 'refused');
    }
  }
  if (fresh.length > 0) await runCalls(env, state, fresh);
}
