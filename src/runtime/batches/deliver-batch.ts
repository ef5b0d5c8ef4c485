import type { BatchRecord, SessionStore } from '../../core/session-store.js';
import { StoreConflictError } from '../../core/store-errors.js';
import type { ToolResult } from '../../core/tool.js';
import { redactSecrets } from '../../tools/redact-secrets.js';
import { boundResult } from '../calls/bound-result.js';
import { modelText } from '../calls/settle-call.js';
import { keepByReference } from '../context/result-by-reference.js';
import { batchResult } from './batch-result.js';

/** What a result handed to the parent is held to: its length, and the values hidden from it. */
export interface ResultBounds {
  readonly resultChars: number;
  readonly hidden: ReadonlyMap<string, string>;
}

/**
 * Gives the parent's still-open `subagent_run` call of `batch` its result, as the call runner would;
 * true when it did (false when the call already has one, or the batch has no call).
 */
export async function deliverBatchResult(
  store: SessionStore,
  batch: BatchRecord,
  result: ToolResult,
  bounds: ResultBounds,
): Promise<boolean> {
  const { turnId, callId } = batch;
  if (turnId === undefined || callId === undefined) return false;
  const call = await store.getToolCall(turnId, callId);
  if (call?.status !== 'running') return false;
  const text = redactSecrets(modelText(result), bounds.hidden);
  // as a live turn settles it: a result over the bound is kept whole and named for tool_result_read
  const place = { sessionId: batch.parentSessionId, turnId, callId, tool: call.tool };
  const content =
    (await keepByReference(store, place, text, bounds.resultChars)) ?? boundResult(text, bounds.resultChars);
  try {
    await store.recordToolResult(turnId, callId, { status: 'done', content, isError: result.isError });
  } catch (error) {
    // The read above and this write are two calls: one settled between them already has its result.
    if (error instanceof StoreConflictError) return false;
    throw error;
  }
  return true;
}

/**
 * For a parent turn that ends without driving its batches any further: each finished batch of turn
 * `turnId` (in session `sessionId`) whose call is still open gets its result, so the leaves that did
 * finish reach the model instead of being lost with the turn.
 */
export async function deliverFinishedBatches(
  store: SessionStore,
  sessionId: string,
  turnId: string,
  bounds: ResultBounds,
): Promise<void> {
  for (const batch of await store.listBatches({ parentSessionId: sessionId })) {
    if (batch.turnId !== turnId || batch.status === 'running') continue;
    await deliverBatchResult(store, batch, batchResult(batch, [], bounds.resultChars), bounds);
  }
}
