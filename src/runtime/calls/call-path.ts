import type { ToolResult } from '../../core/tool.js';
import { coveringGrant } from '../grants/standing-grants.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import type { ApprovalOutcome } from './approval-broker.js';
import { approvalRefusal, askPerson } from './ask-call.js';
import { firstRefusal, firstRefusalNow, GATES_BEFORE_INVOKE, gatesFor } from './gates/gate-order.js';
import type { PlannedCall } from './planned-call.js';
import { type Refusal, refusalResult } from './refusals.js';
import { settleCall } from './settle-call.js';

/*
 * The one way every call goes, top to bottom:
 *   1. read        when its reply was recorded (record-reply.ts): its name resolved once to a target
 *                  (targets/), its arguments read and decoded; arguments that could not be read answer it
 *   2. gates       in their order (gates/gate-order.ts); the first refusal answers it
 *   3. own check   a target that checks its own calls with the gates (a runtime tool's preflight)
 *   4. count       against the turn's bounds: tool calls, and repeats for the loop breaker
 *   5. who decides run at once, refused by the approval policy, let through by the policy or a standing
 *                  grant, or put to a person
 *   6. preflight → ask   only for a call put to a person: nobody is asked about a call that cannot run
 *   7. invoke      claimed so it runs once, and run; a call that waited since its gates (for a person, a
 *                  free slot among the calls running side by side, a restart) first has the turn's stop
 *                  and the tool's withdrawal checked again (`invokeAfterWait`)
 *   8. record      bounded, redacted and stored with its tool message (settle-call.ts)
 * `planCall` is steps 1–5, taken one call at a time in the model's order; `carryOut` is steps 6–8
 * (run-calls.ts runs a call put to a person alone, the others side by side).
 */

/** What happens to a call: answered without running, run, or put to a person first. */
export type CallPlan =
  | { readonly kind: 'answer'; readonly result: ToolResult; readonly status: 'refused' | 'failed' }
  | { readonly kind: 'run' }
  | { readonly kind: 'ask' };

const RUN: CallPlan = { kind: 'run' };
const ASK: CallPlan = { kind: 'ask' };

/** Steps 1–5: decides a call's way before anything runs (see the sequence above). */
export async function planCall(env: TurnEnvironment, state: TurnState, call: PlannedCall): Promise<CallPlan> {
  if (call.unreadable) return { kind: 'answer', result: call.unreadable, status: 'failed' };
  const refusal = await firstRefusal(gatesFor(call.target), call, env, state);
  if (refusal) return refused(call, refusal);
  const own = await call.target.screen?.(call.args ?? {}, { env, state, id: call.id });
  if (own) return { kind: 'answer', result: own, status: 'refused' };
  // Counted when decided, not when run: calls of one reply run side by side.
  state.toolCalls += 1;
  state.repeats.set(call.digest, (state.repeats.get(call.digest) ?? 0) + 1);
  return whoDecides(env, call);
}

/** Step 5: a call that does not ask runs; one that asks is refused, let through, or put to a person. */
export async function whoDecides(env: TurnEnvironment, call: PlannedCall): Promise<CallPlan> {
  if (!call.target.asks) return RUN;
  // The session's deny policy is the person's word for this run: no standing grant overrides it.
  if (env.approval.policy === 'deny') {
    return refused(call, { by: 'policy', reason: 'this session refuses every call that needs approval' });
  }
  // A standing grant answers only for the calls its scope covers (what the person saw when they gave it).
  if (env.approval.policy === 'auto' || (await coveringGrant(env, call)) !== undefined) return RUN;
  return ASK;
}

/** Steps 6–8: carries a plan out and records the call's result. */
export async function carryOut(
  env: TurnEnvironment,
  state: TurnState,
  call: PlannedCall,
  plan: CallPlan,
): Promise<ToolResult> {
  if (plan.kind === 'answer') return settleCall(env, call, plan.result, plan.status);
  if (plan.kind === 'run') return invoke(env, state, call);
  const refusedFirst = await call.target.preflight?.(call.args ?? {}, { env, state, id: call.id });
  if (refusedFirst) return settleCall(env, call, refusedFirst, 'refused');
  if (env.approval.unattended) {
    return settleCall(env, call, refusalResult(call.tool, { by: 'unattended', reason: '' }), 'refused');
  }
  const { approvalId, outcome } = await askPerson(env, call);
  return afterApproval(env, state, call, approvalId, outcome);
}

/** Acts on how a person's answer ended: the call runs, or is answered with the refusal in its own words. */
export async function afterApproval(
  env: TurnEnvironment,
  state: TurnState,
  call: PlannedCall,
  approvalId: string,
  outcome: ApprovalOutcome,
): Promise<ToolResult> {
  const refusal = await approvalRefusal(env, approvalId, outcome);
  if (refusal) return settleCall(env, call, refusalResult(call.tool, refusal), 'refused');
  return invokeAfterWait(env, state, call);
}

/** Step 7 for a call that waited since it passed its gates: the quick gates again, then {@link invoke}. */
export async function invokeAfterWait(
  env: TurnEnvironment,
  state: TurnState,
  call: PlannedCall,
): Promise<ToolResult> {
  // Checked again, not twice for nothing: minutes or hours may have passed, the turn stopped or the tool withdrawn.
  const refusal = firstRefusalNow(GATES_BEFORE_INVOKE, call, env, state);
  if (refusal) return settleCall(env, call, refusalResult(call.tool, refusal), 'refused');
  return invoke(env, state, call);
}

/** Step 7: runs a call that passed its gates a moment ago (and its person, when it asked), exactly once. */
export async function invoke(env: TurnEnvironment, state: TurnState, call: PlannedCall): Promise<ToolResult> {
  // Its gates (and its person, when asked) have let it run: a pending call is approved and claimed in
  // the one write that makes 'running' durable before the tool starts; a claimed or settled one is not.
  if (!(await env.store.claimToolCall(env.turnId, call.id, undefined, { approving: true }))) {
    const again: ToolResult = {
      content: `Error: ${call.tool} was not run again: this call was already started once, and a call runs at most once.`,
      isError: true,
    };
    return settleCall(env, call, again, 'failed');
  }
  const args = call.args ?? {};
  env.emit({ type: 'tool-call-start', callId: call.id, tool: call.tool, arguments: args });
  const result = await call.target.invoke(args, { env, state, id: call.id });
  return settleCall(env, call, result, 'done');
}

function refused(call: PlannedCall, refusal: Refusal): CallPlan {
  return { kind: 'answer', result: refusalResult(call.tool, refusal), status: 'refused' };
}
