import type { RefusedBy } from '../../core/tool.js';
import { targetNamed } from '../calls/targets/target-sources.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';

/** Refusals that come after a call was counted against the turn's bounds (it got past the gates). */
const COUNTED_REFUSALS: ReadonlySet<RefusedBy | undefined> = new Set([
  'user',
  'timeout',
  'policy',
  'unattended',
]);

/**
 * Counts what a resumed turn did before its process died against its bounds, as the live turn did:
 * its model replies and summary requests, and the calls that ran, were put to a person or were refused by their tool's
 * preflight (by digest, for the loop breaker). A call never screened is counted when it is screened now.
 */
export async function countPastWork(env: TurnEnvironment, state: TurnState): Promise<void> {
  const replies = (await env.history.messages(env.store)).filter(
    (m) => m.turnId === env.turnId && m.message.role === 'assistant',
  ).length;
  // each compaction made in the turn was a summary request
  const summaries = (await env.store.listCompactions(env.sessionId)).filter((c) => c.turnId === env.turnId);
  state.modelCalls = replies + summaries.length;
  const asked = new Set((await env.store.listApprovals({ turnId: env.turnId })).map((a) => a.callId));
  for (const call of await env.store.listToolCalls({ turnId: env.turnId })) {
    const counted =
      asked.has(call.id) ||
      call.status === 'approved' ||
      call.status === 'running' ||
      call.status === 'done' ||
      (call.status === 'failed' && call.notRun === undefined) ||
      (call.status === 'refused' && COUNTED_REFUSALS.has(call.refusedBy)) ||
      (call.refusedBy === 'preflight' && countedPreflight(env, call.tool));
    if (!counted) continue;
    state.toolCalls += 1;
    state.repeats.set(call.digest, (state.repeats.get(call.digest) ?? 0) + 1);
  }
}

/**
 * True when the live turn counted a call its preflight refused: a served tool is checked after it is
 * counted (on its way to the person), a target that screens its own calls before (see `planCall`).
 */
function countedPreflight(env: TurnEnvironment, tool: string): boolean {
  return targetNamed(env, tool).screen === undefined;
}
