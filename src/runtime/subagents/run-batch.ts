import { ToolseamError } from '../../core/errors.js';
import type { BatchRecord, LeafRecord, SessionStore } from '../../core/session-store.js';
import { contractFromJson } from '../batches/leaf-contract.js';
import type { Runtime } from '../runtime.js';
import { writersBefore } from './leaf-paths.js';
import { leafSlot } from './leaf-slots.js';
import {
  childSessionId,
  finishLeaf,
  type LeafEnv,
  type LeafStart,
  leafSessionOptions,
  runLeaf,
} from './run-leaf.js';
import { pathBase } from './subagent-options.js';

/** One leaf to run and how it starts. */
export interface LeafWork {
  readonly leaf: LeafRecord;
  readonly start: LeafStart;
}

const active = new WeakMap<Runtime, Set<string>>();

/** True while this runtime is running batch `id`. */
export function isBatchActive(runtime: Runtime, id: string): boolean {
  return active.get(runtime)?.has(id) ?? false;
}

/**
 * Runs a batch's leaves side by side, at most `concurrency` at once across every batch this runtime
 * runs (a leaf writing where an earlier one writes waits for it to end), then marks the batch finished
 * (`done` when every leaf is done, else `failed`) and returns it as stored.
 */
export async function runBatch(
  env: LeafEnv,
  work: readonly LeafWork[],
  concurrency: number,
): Promise<BatchRecord> {
  const store = env.runtime.options.store;
  const running = active.get(env.runtime) ?? new Set<string>();
  active.set(env.runtime, running);
  if (running.has(env.batchId)) {
    throw new ToolseamError('batch_busy', `Batch ${env.batchId} is already running in this process.`);
  }
  running.add(env.batchId);
  try {
    let next = 0;
    let broken = false;
    const before = writersBefore(
      work.map((w) => contractFromJson(w.leaf.contract).writes),
      pathBase(env.runtime),
    );
    const ended: Promise<void>[] = [];
    const worker = async (): Promise<void> => {
      for (let at = next++; at < work.length && !broken; at = next++) {
        const item = work[at] as LeafWork;
        let end = (): void => {};
        ended[at] = new Promise<void>((resolve) => {
          end = resolve;
        });
        try {
          // Leaves are taken in order, so every earlier leaf writing the same paths has been taken:
          // this one waits for them to end, and two leaves never write the same file at once.
          await Promise.all((before[at] ?? []).map((i) => ended[i]));
          const release = await leafSlot(env.runtime, concurrency, env.signal);
          if (broken) {
            // The batch failed while this leaf waited: it never starts (closeBroken ends it).
            release?.();
            return;
          }
          try {
            await runOne(env, item);
          } catch (error) {
            broken = true;
            throw error;
          } finally {
            release?.();
          }
        } finally {
          end();
        }
      }
    };
    // Every running leaf ends before a failure goes up: none may go on after its parent turn has ended.
    const ends = await Promise.allSettled(Array.from({ length: Math.min(concurrency, work.length) }, worker));
    const failed = ends.find((end) => end.status === 'rejected');
    if (failed) {
      // A runtime closing under the batch leaves it to be resumed, as a process that died would.
      const closing = failed.reason instanceof ToolseamError && failed.reason.code === 'runtime_closed';
      if (!closing) await closeBroken(store, env.batchId, failed.reason);
      throw failed.reason;
    }
    const batch = (await store.getBatch(env.batchId)) as BatchRecord;
    if (batch.leaves.every((l) => l.status !== 'queued' && l.status !== 'running')) {
      await store.finishBatch(
        env.batchId,
        batch.leaves.every((l) => l.status === 'done') ? 'done' : 'failed',
      );
    }
    return (await store.getBatch(env.batchId)) as BatchRecord;
  } finally {
    running.delete(env.batchId);
  }
}

async function runOne(env: LeafEnv, { leaf, start }: LeafWork): Promise<void> {
  if (env.signal.aborted) {
    // Stopped before this leaf's turn came: it never starts.
    await finishLeaf(env, leaf, {
      status: 'failed',
      errors: ['the batch was stopped before this leaf started'],
    });
    return;
  }
  if (start.kind === 'fresh') {
    const session = await env.runtime.session(childSessionId(leaf), leafSessionOptions(env, leaf));
    // Another runner claimed it first: that runner reports it.
    if (!(await env.runtime.options.store.claimLeaf(leaf.id, session.id))) return;
  }
  await runLeaf(env, leaf, start);
}

/**
 * After a failure inside toolseam: the leaves left open end as failed and the batch with them, so it
 * is not listed as unfinished work to resume (its parent call is answered as failed). Best effort:
 * the store may be what failed.
 */
async function closeBroken(store: SessionStore, batchId: string, error: unknown): Promise<void> {
  const why = `the batch stopped on a failure inside toolseam (${(error as Error).message ?? String(error)})`;
  try {
    for (const leaf of (await store.getBatch(batchId))?.leaves ?? []) {
      if (leaf.status !== 'queued' && leaf.status !== 'running') continue;
      const when = leaf.status === 'queued' ? 'before this leaf started' : 'before this leaf was recorded';
      await store.finishLeaf(leaf.id, { status: 'failed', errors: [`${why} ${when}`] });
    }
    await store.finishBatch(batchId, 'failed');
  } catch {
    // The failure that goes up says what broke; the batch stays listed as unfinished.
  }
}
