import type { RefusedBy } from '../core/tool.js';
import type { TurnContext } from './turn-context.js';

/** Refusals that come after a call was counted against the turn's bounds (it got past the gates). */
const COUNTED_REFUSALS: ReadonlySet<RefusedBy | undefined> = new Set([
  'user',
  'timeout',
  'policy',
  'unattended',
]);

/**
 * Counts what a resumed turn did before its process died against its bounds, as the live turn did:
 * its model replies, and the calls that ran, were put to a person or were refused by their tool's
 * preflight (by digest, for the loop breaker). A call never screened is counted when it is screened now.
 */
export async function countPastWork(ctx: TurnContext): Promise<void> {
  ctx.modelCalls = (await ctx.store.listMessages(ctx.sessionId)).filter(
    (m) => m.turnId === ctx.turnId && m.message.role === 'assistant',
  ).length;
  const asked = new Set((await ctx.store.listApprovals({ turnId: ctx.turnId })).map((a) => a.callId));
  for (const call of await ctx.store.listToolCalls({ turnId: ctx.turnId })) {
    const counted =
      asked.has(call.id) ||
      call.status === 'approved' ||
      call.status === 'running' ||
      call.status === 'done' ||
      (call.status === 'failed' && call.notRun === undefined) ||
      (call.status === 'refused' && COUNTED_REFUSALS.has(call.refusedBy)) ||
      (call.refusedBy === 'preflight' && countedPreflight(ctx, call.tool));
    if (!counted) continue;
    ctx.toolCalls += 1;
    ctx.repeats.set(call.digest, (ctx.repeats.get(call.digest) ?? 0) + 1);
  }
}

/**
 * True when the live turn counted a call its preflight refused: a provider's tool is checked after it is
 * counted (on its way to the person), a runtime tool's own preflight before (see `classifyCall`).
 */
function countedPreflight(ctx: TurnContext, tool: string): boolean {
  return !ctx.runtimeTools.has(tool);
}
