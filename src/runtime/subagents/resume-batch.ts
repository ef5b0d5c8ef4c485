import { ToolseamError } from '../../core/errors.js';
import type { RuntimeEvent } from '../../core/events.js';
import type { BatchRecord, LeafRecord, LeafResult, SessionStore } from '../../core/session-store.js';
import type { ToolResult } from '../../core/tool.js';
import { batchResult, statusCounts } from '../batches/batch-result.js';
import { deliverBatchResult } from '../batches/deliver-batch.js';
import { ownerAlive } from '../resume/turn-owner.js';
import type { Runtime } from '../runtime.js';
import { agentNamed, type TaskMode } from '../runtime-options.js';
import { agentAllows, type SessionAgent } from '../surface/tool-access.js';
import { leafGrants, servedNames } from './leaf-grants.js';
import { isBatchActive, type LeafWork, runBatch } from './run-batch.js';
import { childSessionId, finishLeaf, type LeafEnv } from './run-leaf.js';
import { resolveSubagentOptions, type SubagentOptions } from './subagent-options.js';

/** Options of `resumeBatch`. */
export interface ResumeBatchOptions extends SubagentOptions {
  /** Receives the leaves' progress and their approval requests (answer them with `runtime.respond`). */
  readonly onEvent?: (event: RuntimeEvent) => void;
  /** Stops the resumed leaves. */
  readonly signal?: AbortSignal;
}

/** What resuming gave: the finished batch, the result its parent reads, and whether that was delivered. */
export interface ResumedBatch {
  readonly batch: BatchRecord;
  readonly result: ToolResult;
  /**
   * True when the parent's `subagent_run` call was still open and now carries this result: resume the
   * parent turn (`runtime.resumeTurn(batch.turnId)`) and its model reads it.
   */
  readonly deliveredToParent: boolean;
}

const UNFINISHED_TURN = new Set(['running', 'waiting_approval']);

/**
 * The agent and task mode the batch's parent turn ran under (as the turn stored them, else its
 * session's agent), which bound its leaves as they did when the batch started.
 */
async function parentGates(
  runtime: Runtime,
  batch: BatchRecord,
): Promise<{ agent: SessionAgent; mode: TaskMode }> {
  const store = runtime.options.store;
  const turn = batch.turnId === undefined ? undefined : await store.getTurn(batch.turnId);
  const name = turn?.agent ?? (await store.getSession(batch.parentSessionId))?.agent;
  const config = agentNamed(runtime.options, name);
  if (name !== undefined && config === undefined) {
    throw new ToolseamError(
      'unknown_agent',
      `Batch ${batch.id} was started by agent "${name}", which is no longer in the configuration, so its leaves are not resumed.`,
    );
  }
  const agent = name !== undefined && config !== undefined ? { name, config } : undefined;
  const mode = turn?.mode === 'plan' || turn?.mode === 'agent' ? turn.mode : (config?.mode ?? 'agent');
  return { agent, mode };
}

/** Who runs a batch now, if anyone but this runtime: its parent turn's live owner. */
async function ownerElsewhere(runtime: Runtime, batch: BatchRecord): Promise<string | undefined> {
  const turn = batch.turnId === undefined ? undefined : await runtime.options.store.getTurn(batch.turnId);
  if (!turn || !UNFINISHED_TURN.has(turn.status)) return undefined;
  return turn.owner !== runtime.owner && ownerAlive(turn) ? turn.owner : undefined;
}

/** Batches left unfinished by a process that is gone (nobody runs them): resume each with `resumeBatch`. */
export async function unfinishedBatches(runtime: Runtime): Promise<BatchRecord[]> {
  const nobodys: BatchRecord[] = [];
  for (const b of await runtime.options.store.listBatches({ unfinished: true })) {
    if (!isBatchActive(runtime, b.id) && (await ownerElsewhere(runtime, b)) === undefined) nobodys.push(b);
  }
  return nobodys;
}

/** One line naming a batch and where its leaves stand, e.g. for a list of unfinished batches. */
export function batchSummary(batch: BatchRecord): string {
  const title = batch.title ? ` "${batch.title}"` : '';
  return `${batch.id}${title}: ${statusCounts(batch.leaves)}`;
}

/**
 * Finishes a batch a dead process left: leaves that finished are kept as they are (never re-run); a
 * leaf whose child turn was cut short is taken over where it stopped (its pending approvals asked
 * again, a started call never run twice); leaves that never started run now. The parent's open
 * `subagent_run` call then gets the batch's result.
 */
export async function resumeBatch(
  runtime: Runtime,
  batchId: string,
  options: ResumeBatchOptions = {},
): Promise<ResumedBatch> {
  const store = runtime.options.store;
  const batch = await store.getBatch(batchId);
  if (!batch) throw new ToolseamError('unknown_batch', `There is no batch with id ${batchId}.`);
  if (batch.status !== 'running') {
    throw new ToolseamError('batch_finished', `Batch ${batchId} has already finished (${batch.status}).`);
  }
  const elsewhere = await ownerElsewhere(runtime, batch);
  if (isBatchActive(runtime, batchId) || elsewhere !== undefined) {
    const where = elsewhere === undefined ? 'this process' : `another process (${elsewhere})`;
    throw new ToolseamError('batch_busy', `Batch ${batchId} is still running in ${where}.`);
  }
  const settings = resolveSubagentOptions(runtime, options);
  const env = await batchEnv(runtime, batch, options);
  // Every leaf is planned before any is stored: a leaf that refuses (busy elsewhere) leaves all as they were.
  const steps: LeafStep[] = [];
  for (const leaf of batch.leaves) steps.push(await planLeaf(env, leaf));
  const work: LeafWork[] = [];
  for (const step of steps) {
    const item = await applyLeafStep(env, step);
    if (item) work.push(item);
  }
  const finished = await runBatch(env, work, settings.concurrency);
  const result = batchResult(finished, [], runtime.limits.resultChars);
  const bounds = { resultChars: runtime.limits.resultChars, hidden: runtime.hidden };
  return {
    batch: finished,
    result,
    deliveredToParent: await deliverBatchResult(store, finished, result, bounds),
  };
}

/**
 * What the leaves of a stored batch run with, as when it started: the tools its parent's agent allows
 * among those served now, the parent turn's mode, the leaf time limit.
 */
export async function batchEnv(
  runtime: Runtime,
  batch: BatchRecord,
  options: ResumeBatchOptions = {},
): Promise<LeafEnv> {
  const settings = resolveSubagentOptions(runtime, options);
  const parent = await parentGates(runtime, batch);
  const allows = (name: string): boolean => agentAllows(parent.agent, name);
  return {
    runtime,
    batchId: batch.id,
    parentSessionId: batch.parentSessionId,
    grants: leafGrants(await servedNames(runtime.options.registry, allows, options.signal)),
    parentMode: parent.mode,
    timeoutMs: settings.leafTimeoutMs,
    signal: options.signal ?? new AbortController().signal,
    emit: options.onEvent ?? (() => {}),
  };
}

/** What resuming does with one leaf, decided before anything is stored. */
export type LeafStep =
  | { readonly kind: 'keep' }
  | { readonly kind: 'run'; readonly work: LeafWork; readonly requeue: boolean }
  | { readonly kind: 'record'; readonly leaf: LeafRecord; readonly result: LeafResult };

/**
 * How one leaf goes on: kept, run afresh, taken over, or settled from what its child session shows.
 * Reads only; throws `batch_busy` when the leaf's child turn still runs in another live process.
 */
export async function planLeaf(env: LeafEnv, leaf: LeafRecord): Promise<LeafStep> {
  if (leaf.status === 'queued')
    return { kind: 'run', work: { leaf, start: { kind: 'fresh' } }, requeue: false };
  if (leaf.status !== 'running') return { kind: 'keep' };
  const store = env.runtime.options.store;
  const sessionId = leaf.childSessionId ?? childSessionId(leaf);
  const turn = (await store.listTurns({ sessionId })).at(-1);
  if (!turn) return { kind: 'run', work: { leaf, start: { kind: 'fresh' } }, requeue: true };
  if (UNFINISHED_TURN.has(turn.status)) {
    if (turn.owner !== env.runtime.owner && env.runtime.ownerAlive(turn)) {
      throw new ToolseamError(
        'batch_busy',
        `Leaf "${leaf.title}" of batch ${leaf.batchId} is still running in another process (${turn.owner}).`,
      );
    }
    return { kind: 'run', work: { leaf, start: { kind: 'resume', turnId: turn.id } }, requeue: false };
  }
  // The child turn ended but the process died before the leaf was recorded: record it from the turn.
  // A turn stopped at a limit is stored as done with the limit as its error: that leaf failed.
  if (turn.status === 'done' && turn.error === undefined) {
    const output = await lastAnswer(store, sessionId, turn.id);
    return { kind: 'record', leaf, result: { status: 'done', ...(output === undefined ? {} : { output }) } };
  }
  const errors = [turn.error ?? `its session's turn ended ${turn.status}`];
  return { kind: 'record', leaf, result: { status: 'failed', errors } };
}

/** Stores what `planLeaf` decided for one leaf; the work to run, if any. */
export async function applyLeafStep(env: LeafEnv, step: LeafStep): Promise<LeafWork | undefined> {
  switch (step.kind) {
    case 'keep':
      return undefined;
    case 'record':
      await finishLeaf(env, step.leaf, step.result);
      return undefined;
    case 'run':
      if (step.requeue) await env.runtime.options.store.requeueLeaf(step.work.leaf.id);
      return step.work;
  }
}

async function lastAnswer(
  store: SessionStore,
  sessionId: string,
  turnId: string,
): Promise<string | undefined> {
  const answers = (await store.listMessages(sessionId)).filter(
    (m) => m.turnId === turnId && m.message.role === 'assistant',
  );
  return answers.at(-1)?.message.content;
}
