import { ToolseamError } from '../../core/errors.js';
import type { RuntimeEvent } from '../../core/events.js';
import type { LeafRecord, LeafResult } from '../../core/session-store.js';
import { StoreConflictError } from '../../core/store-errors.js';
import { headOf } from '../../core/text-cut.js';
import { contractFromJson, leafPrompt } from '../batches/leaf-contract.js';
import { leafEnding } from '../batches/leaf-ending.js';
import { QUEUED_OWNER } from '../resume/turn-owner.js';
import type { Runtime, SessionOptions } from '../runtime.js';
import { agentNamed, type TaskMode } from '../runtime-options.js';
import { LeafClock } from './leaf-clock.js';
import { durationWords } from './subagent-options.js';

/** What every leaf of one batch runs with. */
export interface LeafEnv {
  readonly runtime: Runtime;
  readonly batchId: string;
  /** The session whose turn started the batch. */
  readonly parentSessionId: string;
  /** The tools a leaf may use at all (exact names; never an orchestration tool). */
  readonly grants: readonly string[];
  /** `plan` when the parent runs in plan mode: then every leaf does. */
  readonly parentMode: TaskMode;
  readonly timeoutMs: number;
  /** Stops every leaf (the parent turn was stopped). */
  readonly signal: AbortSignal;
  /** Where progress and the leaves' approval requests go (the parent turn's stream). */
  readonly emit: (event: RuntimeEvent) => void;
  /** Each leaf runs as a job of its own (hosted mode): a wait for a person parks the leaf's turn. */
  readonly parks?: boolean;
}

/** How a leaf starts: afresh, or by taking over its child turn that a dead process left. */
export type LeafStart = { readonly kind: 'fresh' } | { readonly kind: 'resume'; readonly turnId: string };

/** Most tool errors kept per leaf. */
const MAX_ERRORS = 5;

/** The child session a leaf runs in: one per leaf, named after it, so a resume finds it again. */
export function childSessionId(leaf: LeafRecord): string {
  return `${leaf.id}-session`;
}

/** The session options of a leaf: its agent, its mode, its tool grants and where its file tools may write. */
export function leafSessionOptions(env: LeafEnv, leaf: LeafRecord): SessionOptions {
  const contract = contractFromJson(leaf.contract);
  const agentMode = agentNamed(env.runtime.options, leaf.agent)?.mode;
  const research = contract.capability === 'research';
  const mode: TaskMode = env.parentMode === 'plan' || research ? 'plan' : (agentMode ?? 'agent');
  return {
    ...(leaf.agent !== undefined ? { agent: leaf.agent } : {}),
    mode,
    title: leaf.title,
    grants: env.grants,
    leaf: {
      title: leaf.title,
      parentSessionId: env.parentSessionId,
      writable: research ? [] : contract.writes,
      offLimits: contract.off_limits,
      ...(env.parks === true ? { parks: true } : {}),
    },
  };
}

/** Emits one `leaf` progress event. */
export function emitLeaf(
  env: LeafEnv,
  leaf: LeafRecord,
  state: Extract<RuntimeEvent, { type: 'leaf' }>['state'],
  detail?: string,
): void {
  env.emit({
    type: 'leaf',
    batchId: env.batchId,
    leafId: leaf.id,
    title: leaf.title,
    state,
    ...(detail === undefined ? {} : { detail }),
  });
}

/**
 * Runs one claimed leaf in its child session until it ends, stopping it when its time limit passes (not
 * counting waits for a person's answer) or the parent stops; its approval requests go up the parent's
 * stream. Records and returns how it ended (unfinished as it was when another process took its turn
 * over first, or when its turn parked to wait for a person: the answer sends its job again).
 */
export async function runLeaf(env: LeafEnv, leaf: LeafRecord, start: LeafStart): Promise<LeafRecord> {
  const controller = new AbortController();
  let timedOut = false;
  const clock = new LeafClock(env.timeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  const stop = (): void => controller.abort();
  env.signal.addEventListener('abort', stop, { once: true });
  if (env.signal.aborted) stop();
  emitLeaf(env, leaf, 'started', start.kind === 'resume' ? 'resumed' : undefined);
  const options = leafSessionOptions(env, leaf);
  const errors: string[] = [];
  let end: Extract<RuntimeEvent, { type: 'turn-end' }> | undefined;
  let turnId: string | undefined;
  try {
    const events =
      start.kind === 'resume'
        ? await env.runtime.resumeTurn(start.turnId, { ...options, signal: controller.signal })
        : await (await env.runtime.session(childSessionId(leaf), options)).send(
            leafPrompt(leaf.title, contractFromJson(leaf.contract)),
            { signal: controller.signal },
          );
    for await (const event of events) {
      if (event.type === 'turn-start') turnId = event.turnId;
      if (event.type === 'turn-end') end = event;
      else forward(env, leaf, event, errors, clock);
    }
    // Its turn parked on a question (it ended with no turn-end): no process holds the leaf until the answer.
    if (end === undefined && turnId !== undefined && (await parkedOnQuestion(env, turnId))) return leaf;
  } catch (error) {
    // Another process took the leaf's turn over first (workers racing for a dead one's leaf): it
    // drives the leaf and records how it ends.
    if (start.kind === 'resume' && error instanceof ToolseamError && error.code === 'turn_busy') return leaf;
    errors.push(`the leaf could not run: ${(error as Error).message}`);
  } finally {
    clock.stop();
    env.signal.removeEventListener('abort', stop);
  }
  return finishLeaf(env, leaf, outcome(env, end, timedOut, errors));
}

/**
 * Passes a child's event on: progress as `leaf` events, approval requests and answers as they are, a
 * wait before a model call is tried again marked with the leaf; the leaf's clock stands still from a
 * request until its answer.
 */
function forward(
  env: LeafEnv,
  leaf: LeafRecord,
  event: RuntimeEvent,
  errors: string[],
  clock: LeafClock,
): void {
  switch (event.type) {
    case 'tool-call-start':
      emitLeaf(env, leaf, 'tool-call', event.tool);
      break;
    case 'tool-call-end':
      if (event.isError) errors.push(`${event.tool}: ${firstLine(event.content)}`);
      break;
    case 'approval-request':
      clock.pause(event.request.id);
      emitLeaf(env, leaf, 'approval-needed', `${event.request.tool}: ${event.request.meaning}`);
      env.emit(event);
      break;
    case 'approval-resolved':
      clock.resume(event.approvalId);
      env.emit(event);
      break;
    case 'model-retry':
      env.emit({ ...event, leaf: { batchId: env.batchId, leafId: leaf.id, title: leaf.title } });
      break;
    // left out for the model every session shares: the person hears of it wherever it happened
    case 'tools-quarantined':
      env.emit(event);
      break;
    default:
      break;
  }
}

/** True when turn `turnId` is parked in the store waiting for a person's answer. */
async function parkedOnQuestion(env: LeafEnv, turnId: string): Promise<boolean> {
  if (env.parks !== true) return false;
  const turn = await env.runtime.options.store.getTurn(turnId);
  return turn?.status === 'waiting_approval' && turn.owner === QUEUED_OWNER;
}

function outcome(
  env: LeafEnv,
  end: Extract<RuntimeEvent, { type: 'turn-end' }> | undefined,
  timedOut: boolean,
  toolErrors: readonly string[],
): LeafResult {
  const errors =
    toolErrors.length > MAX_ERRORS
      ? [...toolErrors.slice(0, MAX_ERRORS), `and ${toolErrors.length - MAX_ERRORS} more tool errors`]
      : [...toolErrors];
  if (end?.status === 'done') return { status: 'done', output: end.message, errors };
  if (timedOut) {
    const limit = `it did not finish within its time limit of ${durationWords(env.timeoutMs)} (waits for a person's answer not counted) and was stopped`;
    return { status: 'timed_out', errors: [limit, ...errors] };
  }
  if (env.signal.aborted) {
    return { status: 'failed', errors: ['the batch was stopped before this leaf finished', ...errors] };
  }
  const why = end ? end.message : 'its session ended without saying how';
  return { status: 'failed', errors: [why, ...errors] };
}

/**
 * Records how a leaf ended (once: a leaf someone else already finished keeps that ending) and reports
 * it; a leaf that ended without an answer says so, and which of its tool calls had already run.
 */
export async function finishLeaf(env: LeafEnv, leaf: LeafRecord, result: LeafResult): Promise<LeafRecord> {
  const store = env.runtime.options.store;
  let record: LeafRecord;
  try {
    record = await store.finishLeaf(
      leaf.id,
      await leafEnding(store, leaf.childSessionId ?? childSessionId(leaf), result),
    );
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    record = (await store.getBatch(leaf.batchId))?.leaves.find((l) => l.id === leaf.id) ?? leaf;
  }
  emitLeaf(
    env,
    record,
    record.status === 'done' ? 'done' : record.status === 'timed_out' ? 'timed_out' : 'failed',
    record.errors[0],
  );
  return record;
}

function firstLine(text: string): string {
  const line = (text.split('\n')[0] ?? '').replace(/^Error:\s*/, '');
  return line.length <= 200 ? line : `${headOf(line, 197)}...`;
}
