import type { ApprovalRequest } from '../../core/approval.js';
import type { ToolResult } from '../../core/tool.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import { putQuestion } from './ask-call.js';
import { type CallPlan, whoDecides } from './call-path.js';
import { denyListGate } from './gates/deny-list-gate.js';
import type { Gate } from './gates/gate.js';
import { firstRefusal } from './gates/gate-order.js';
import { preToolHookGate } from './gates/pre-tool-hook-gate.js';
import { stoppedGate } from './gates/stopped-gate.js';
import { unknownToolGate } from './gates/unknown-tool-gate.js';
import { withdrawnGate } from './gates/withdrawn-gate.js';
import type { PlannedCall } from './planned-call.js';
import { refusalResult } from './refusals.js';
import { settleCall } from './settle-call.js';

/*
 * A call that comes from outside a turn (an MCP client's `tools/call`) takes the same path as a model's
 * call (call-path.ts), with the gates that mean something without a model's turn: no tool-call limit or
 * loop breaker (no model is looping), no agent list, task mode or run grants (no agent runs). Then the
 * same "who decides", preflight, question, invoke and settle. A caller that cannot wait for a person
 * (its client cannot ask) has the question stored and is told how to answer it (`askLater`).
 */

/** The gates a call from outside a turn passes, in the turn's order: the first refusal answers it. */
export const GATES_OUTSIDE_TURN: readonly Gate[] = [
  stoppedGate,
  denyListGate,
  preToolHookGate,
  unknownToolGate,
  withdrawnGate,
];

/** Steps 1–5 for a call outside a turn: unreadable, the gates, the tool's own check, who decides. */
export async function planOutsideCall(
  env: TurnEnvironment,
  state: TurnState,
  call: PlannedCall,
): Promise<CallPlan> {
  if (call.unreadable) return { kind: 'answer', result: call.unreadable, status: 'failed' };
  const refusal = await firstRefusal(GATES_OUTSIDE_TURN, call, env, state);
  if (refusal) return { kind: 'answer', result: refusalResult(call.tool, refusal), status: 'refused' };
  const own = await call.target.screen?.(call.args ?? {}, { env, state, id: call.id });
  if (own) return { kind: 'answer', result: own, status: 'refused' };
  return whoDecides(env, call);
}

/** How a call put to a person ended when nobody could be waited for: answered now, or a question stored. */
export type LaterAnswer =
  | { readonly kind: 'answered'; readonly result: ToolResult }
  | { readonly kind: 'asked'; readonly request: ApprovalRequest };

/**
 * Step 6 for a caller that cannot wait for the answer: the preflight (nobody is asked about a call that
 * cannot run), an unattended run's refusal, else the question stored durably and bound to this call's
 * digest; the call stays pending, to be carried out when the caller comes back with the same call.
 */
export async function askLater(
  env: TurnEnvironment,
  state: TurnState,
  call: PlannedCall,
): Promise<LaterAnswer> {
  const refusedFirst = await call.target.preflight?.(call.args ?? {}, { env, state, id: call.id });
  if (refusedFirst) return answered(await settleCall(env, call, refusedFirst, 'refused'));
  if (env.approval.unattended) {
    const refusal = refusalResult(call.tool, { by: 'unattended', reason: '' });
    return answered(await settleCall(env, call, refusal, 'refused'));
  }
  const request = await putQuestion(env, call);
  // Nothing here waits on it: the turn holding the client's calls goes on taking them.
  await env.store.setTurnStatus(env.turnId, 'running', { from: ['waiting_approval'] });
  return { kind: 'asked', request };
}

function answered(result: ToolResult): LaterAnswer {
  return { kind: 'answered', result };
}
