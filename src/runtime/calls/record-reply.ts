import { randomUUID } from 'node:crypto';
import type { ReplyUsage } from '../../core/context-records.js';
import type { AssistantToolCall } from '../../core/model.js';
import { STORE_RETRY_MS, storeTrouble, writeWhenStoreAnswers } from '../turn/store-retry.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import { type PlannedCall, type ReadCall, readCall } from './planned-call.js';

/**
 * Stores a model reply with its calls (read and resolved), so a crash never loses what was asked;
 * `endsTurn` (a final answer, no calls) marks the turn done in the same write.
 */
export async function recordReply(
  env: TurnEnvironment,
  state: Pick<TurnState, 'callIds'>,
  reply: ModelAnswer,
  stoppedByLength: boolean,
  endsTurn = false,
): Promise<PlannedCall[]> {
  const unique = await withUniqueIds(env, state, reply.calls);
  const read = unique.map((c) => readCall(env, c, stoppedByLength));
  return recordReadCalls(env, reply.text, read, endsTurn, reply.usage);
}

/** A model's answer as the turn stores it: its text, its calls and the token counts it came with. */
export interface ModelAnswer {
  readonly text: string;
  readonly calls: readonly AssistantToolCall[];
  readonly usage?: ReplyUsage | undefined;
}

/**
 * Stores a reply whose calls were read already (ids unique in the turn), with their records. A caller
 * outside a turn (the MCP surface) reads its one call itself, under an id it made unique.
 */
export async function recordReadCalls(
  env: TurnEnvironment,
  text: string,
  read: readonly ReadCall[],
  endsTurn = false,
  usage?: ReplyUsage,
): Promise<PlannedCall[]> {
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
    ...(endsTurn ? { endsTurn } : {}),
    ...(usage === undefined ? {} : { usage }),
  };
  // The reply was shown and paid for: a store that cannot take it yet is waited for, not given up on.
  const { calls: records, message } = await writeWhenStoreAnswers(
    () => env.store.recordModelReply(env.turnId, reply),
    env.storeRetryMs ?? STORE_RETRY_MS,
    (trouble) =>
      env.emit({
        type: 'notice',
        message: `the session store cannot take the model's reply yet (${storeTrouble(trouble)}); it is kept, and its calls run once the store answers`,
      }),
  );
  env.history.wrote(message);
  return read.map((c, i) => ({ ...c, record: records[i] as PlannedCall['record'] }));
}

/**
 * The reply's calls, each with an id no other call of the turn has: a provider that leaves ids out
 * (or repeats them) would otherwise pair a result with the wrong call, or collide with an earlier
 * reply's call in the store. A new id is only given where needed.
 */
async function withUniqueIds(
  env: TurnEnvironment,
  state: Pick<TurnState, 'callIds'>,
  calls: readonly AssistantToolCall[],
): Promise<AssistantToolCall[]> {
  // A reply without calls (the final answer) has no ids to check: the turn's calls are not read for it.
  if (calls.length === 0) return [];
  // Only this turn's runner records its replies, so the ids once read stay known for the turn.
  state.callIds ??= new Set((await env.store.listToolCalls({ turnId: env.turnId })).map((c) => c.id));
  const taken = state.callIds;
  return calls.map((call) => {
    let id = call.id.trim();
    if (id === '' || taken.has(id)) id = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    taken.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
