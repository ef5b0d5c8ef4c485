import type { ToolResult } from '../../core/tool.js';
import { coveringGrant } from '../grants/standing-grants.js';
import { META_TOOL_NAMES } from '../surface/tool-surface.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import { screenCall } from './gates/gates.js';
import type { PlannedCall } from './planned-call.js';
import { refusalResult } from './refusals.js';
import { runtimeToolContext } from './runtime-tool-context.js';

/** What happens to a call: answered without running, run (asked or not), or put to a person. */
export type CallPlan =
  | { readonly kind: 'answer'; readonly result: ToolResult; readonly status: 'refused' | 'failed' }
  | { readonly kind: 'run'; readonly waived: boolean }
  | { readonly kind: 'ask' };

/**
 * Decides a call's way before anything runs: unreadable arguments, the turn's bounds, the loop breaker
 * and the gates answer it at once; a call that asks goes to a person (after preflight) unless the
 * policy or a standing grant answers for them.
 */
export async function classifyCall(
  env: TurnEnvironment,
  state: TurnState,
  call: PlannedCall,
): Promise<CallPlan> {
  if (call.unreadable) return { kind: 'answer', result: call.unreadable, status: 'failed' };
  if (env.signal.aborted) return answer(call.tool, { by: 'stopped', reason: '' });
  if (state.toolCalls >= env.limits.maxToolCalls) {
    const plain = `this turn already ran its limit of ${env.limits.maxToolCalls} tool calls`;
    const reason = `${plain}; finish with what you have`;
    return answer(call.tool, { by: 'loop_breaker', reason, notRun: 'limit_reached', plain });
  }
  const repeats = state.repeats.get(call.digest) ?? 0;
  if (repeats >= env.limits.repeatLimit) {
    const reason = `it is the same call with the same arguments as ${repeats} earlier call${repeats === 1 ? '' : 's'} this turn`;
    return answer(call.tool, { by: 'loop_breaker', reason, notRun: 'loop_breaker' });
  }
  const runtimeTool = env.runtimeTools.get(call.tool);
  const refusal = await screenCall(env.gates, {
    tool: call.tool,
    args: call.args ?? {},
    sessionId: env.sessionId,
    surface: env.surface,
    registry: env.registry,
    signal: env.signal,
    ...(runtimeTool ? { runtimeTool: runtimeTool.definition } : {}),
    ...(runtimeTool?.keepsTaskMode ? { keepsTaskMode: true } : {}),
  });
  if (refusal) return answer(call.tool, refusal);
  if (runtimeTool?.preflight) {
    const refused = await runtimeTool.preflight(call.args ?? {}, runtimeToolContext(env, call.id));
    if (refused?.isError) {
      const result = { ...refused, notRun: 'refused_by_tool' as const, refusedBy: 'preflight' as const };
      return { kind: 'answer', result, status: 'refused' };
    }
  }
  // Counted when decided, not when run: calls of one reply run side by side.
  state.toolCalls += 1;
  state.repeats.set(call.digest, repeats + 1);
  if (runtimeTool || META_TOOL_NAMES.has(call.tool)) return { kind: 'run', waived: false };
  const def = env.surface.byName.get(call.tool)?.definition;
  if (!def?.requiresApproval || def.risk === 'safe') return { kind: 'run', waived: false };
  // The session's deny policy is the person's word for this run: no standing grant overrides it.
  if (env.approval.policy === 'deny') {
    return answer(call.tool, { by: 'policy', reason: 'this session refuses every call that needs approval' });
  }
  // A standing grant answers only for the calls its scope covers (what the person saw when they gave it).
  if (env.approval.policy === 'auto' || (await coveringGrant(env, call)) !== undefined) {
    return { kind: 'run', waived: true };
  }
  return { kind: 'ask' };
}

function answer(tool: string, refusal: Parameters<typeof refusalResult>[1]): CallPlan {
  return { kind: 'answer', result: refusalResult(tool, refusal), status: 'refused' };
}
