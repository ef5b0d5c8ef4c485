import type { BatchRecord, SessionStore } from '../../core/session-store.js';
import type { ToolResult } from '../../core/tool.js';
import { redactSecrets } from '../../tools/redact-secrets.js';
import { boundResult } from '../bound-result.js';
import { modelText } from '../settle-call.js';
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
export function deliverBatchResult(
  store: SessionStore,
  batch: BatchRecord,
  result: ToolResult,
  bounds: ResultBounds,
): boolean {
  const { turnId, callId } = batch;
  if (turnId === undefined || callId === undefined) return false;
  if (store.getToolCall(turnId, callId)?.status !== 'running') return false;
  const content = boundResult(redactSecrets(modelText(result), bounds.hidden), bounds.resultChars);
  store.recordToolResult(turnId, callId, { status: 'done', content, isError: result.isError });
  return true;
}

/**
 * For a parent turn that ends without driving its batches any further: each finished batch of turn
 * `turnId` (in session `sessionId`) whose call is still open gets its result, so the leaves that did
 * finish reach the model instead of being lost with the turn.
 */
export function deliverFinishedBatches(
  store: SessionStore,
  sessionId: string,
  turnId: string,
  bounds: ResultBounds,
): void {
  for (const batch of store.listBatches({ parentSessionId: sessionId })) {
    if (batch.turnId !== turnId || batch.status === 'running') continue;
    deliverBatchResult(store, batch, batchResult(batch, [], bounds.resultChars), bounds);
  }
}
