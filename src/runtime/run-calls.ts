import { randomUUID } from 'node:crypto';
import type { AssistantToolCall } from '../core/model.js';
import { askAndRun } from './ask-call.js';
import { classifyCall } from './classify-call.js';
import { type PlannedCall, readCall } from './planned-call.js';
import { runCall, settleCall } from './settle-call.js';
import { STORE_RETRY_MS, storeTrouble, writeWhenStoreAnswers } from './store-retry.js';
import type { TurnContext } from './turn-context.js';

/**
 * Stores a model reply with its calls (read and resolved), so a crash never loses what was asked.
 */
export async function recordReply(
  ctx: TurnContext,
  text: string,
  calls: readonly AssistantToolCall[],
  stoppedByLength: boolean,
): Promise<PlannedCall[]> {
  const read = (await withUniqueIds(ctx, calls)).map((c) =>
    readCall(ctx.surface, c, stoppedByLength, ctx.runtimeTools, ctx.limits.argumentChars),
  );
  const reply = {
    content: text,
    calls: read.map((c) => ({
      id: c.id,
      wireName: c.wireName,
      tool: c.tool,
      rawArguments: c.rawArguments,
      ...(c.signature === undefined ? {} : { signature: c.signature }),
      digest: c.digest,
      ...(c.args ? { arguments: c.args, argumentsAsRaw: c.argsAsRaw === true } : {}),
    })),
  };
  // The reply was shown and paid for: a store that cannot take it yet is waited for, not given up on.
  const { calls: records } = await writeWhenStoreAnswers(
    () => ctx.store.recordModelReply(ctx.turnId, reply),
    ctx.storeRetryMs ?? STORE_RETRY_MS,
    (trouble) =>
      ctx.emit({
        type: 'notice',
        message: `the session store cannot take the model's reply yet (${storeTrouble(trouble)}); it is kept, and its calls run once the store answers`,
      }),
  );
  return read.map((c, i) => ({ ...c, record: records[i] as PlannedCall['record'] }));
}

/**
 * The reply's calls, each with an id no other call of the turn has: a provider that leaves ids out
 * (or repeats them) would otherwise pair a result with the wrong call, or collide with an earlier
 * reply's call in the store. A new id is only given where needed.
 */
async function withUniqueIds(
  ctx: TurnContext,
  calls: readonly AssistantToolCall[],
): Promise<AssistantToolCall[]> {
  const taken = new Set((await ctx.store.listToolCalls({ turnId: ctx.turnId })).map((c) => c.id));
  return calls.map((call) => {
    let id = call.id.trim();
    if (id === '' || taken.has(id)) id = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    taken.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

/**
 * Runs a reply's calls. Calls that need a person run alone, in the model's order; the others run
 * side by side (up to the parallel limit) between them.
 */
export async function runCalls(ctx: TurnContext, calls: readonly PlannedCall[]): Promise<void> {
  let group: Promise<unknown>[] = [];
  // Every call of a group ends before a failure goes up: the turn's clean-up must not answer a
  // sibling that is still running as if it never ran.
  const flush = async (): Promise<void> => {
    const ends = await Promise.allSettled(group);
    group = [];
    const failed = ends.find((end) => end.status === 'rejected');
    if (failed) throw failed.reason;
  };
  for (const call of calls) {
    const plan = await classifyCall(ctx, call);
    if (plan.kind === 'answer') {
      await settleCall(ctx, call, plan.result, plan.status);
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
