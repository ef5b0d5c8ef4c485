import type { AssistantToolCall } from '../core/model.js';
import { askAndRun } from './ask-call.js';
import { classifyCall } from './classify-call.js';
import { type PlannedCall, readCall } from './planned-call.js';
import { runCall, settleCall } from './settle-call.js';
import type { TurnContext } from './turn-context.js';

/**
 * Stores a model reply with its calls (read and resolved), so a crash never loses what was asked.
 */
export function recordReply(
  ctx: TurnContext,
  text: string,
  calls: readonly AssistantToolCall[],
  stoppedByLength: boolean,
): PlannedCall[] {
  const read = calls.map((c) => readCall(ctx.surface, c, stoppedByLength, ctx.runtimeTools));
  const { calls: records } = ctx.store.recordModelReply(ctx.turnId, {
    content: text,
    calls: read.map((c) => ({
      id: c.id,
      wireName: c.wireName,
      tool: c.tool,
      rawArguments: c.rawArguments,
      digest: c.digest,
      ...(c.args ? { arguments: c.args } : {}),
    })),
  });
  return read.map((c, i) => ({ ...c, record: records[i] as PlannedCall['record'] }));
}

/**
 * Runs a reply's calls. Calls that need a person run alone, in the model's order; the others run
 * side by side (up to the parallel limit) between them.
 */
export async function runCalls(ctx: TurnContext, calls: readonly PlannedCall[]): Promise<void> {
  let group: Promise<unknown>[] = [];
  const flush = async (): Promise<void> => {
    await Promise.all(group);
    group = [];
  };
  for (const call of calls) {
    const plan = await classifyCall(ctx, call);
    if (plan.kind === 'answer') {
      settleCall(ctx, call, plan.result, plan.status);
    } else if (plan.kind === 'ask') {
      await flush();
      await askAndRun(ctx, call);
    } else {
      if (group.length >= ctx.limits.parallelCalls) await flush();
      group.push(runCall(ctx, call));
    }
  }
  await flush();
}
