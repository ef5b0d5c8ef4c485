import { ToolseamError } from '../../core/errors.js';
import type { RuntimeEvent } from '../../core/events.js';
import type { JobQueue } from '../../core/job-queue.js';
import type { JsonObject } from '../../core/json.js';
import { FINAL_TURN_STATES } from '../../core/session-records.js';
import type { BatchRecord, LeafRecord, TurnRecord } from '../../core/session-store.js';
import { signalTopics } from '../../core/signals.js';
import { contractFromJson } from '../batches/leaf-contract.js';
import { JOB_KINDS } from '../jobs/job-kinds.js';
import { JobUpkeep } from '../jobs/job-upkeep.js';
import { sendLeafJob } from '../jobs/leaf-job.js';
import { waitsForAnswer } from '../jobs/waits-for-answer.js';
import { parentEnding } from '../resume/abandoned-turns.js';
import { QUEUED_OWNER } from '../resume/turn-owner.js';
import type { Runtime } from '../runtime.js';
import { writersBefore } from './leaf-paths.js';
import { applyLeafStep, batchEnv, planLeaf } from './resume-batch.js';
import { childSessionId, finishLeaf, type LeafEnv, leafSessionOptions, runLeaf } from './run-leaf.js';
import { pathBase, type SubagentOptions } from './subagent-options.js';

/** Where a leaf's progress and questions go: among its parent turn's events (kept in the store). */
export type LeafEventSink = (parentSessionId: string, parentTurnId: string, event: RuntimeEvent) => void;

/** How subagent leaves run as jobs. */
export interface LeafJobsOptions {
  readonly runtime: Runtime;
  readonly queue: JobQueue;
  /** Puts a parent turn's continuation on the queue (its batches have ended). */
  readonly continueTurn: (turnId: string) => Promise<void>;
  /** Where leaves run here send their events; none: they are dropped. */
  readonly events?: LeafEventSink;
  /** The leaf time limit, as `subagent_run` has it. */
  readonly subagents?: SubagentOptions;
  /** How often a worker looks for leaves a dead worker left, or whose job was lost (default 5 s). */
  readonly sweepMs?: number;
  /** Told of each leaf this process starts or takes over (tests). */
  readonly onLeaf?: (leafId: string) => void;
}

const UNFINISHED = new Set(['queued', 'running']);

/** True when a batch's parent turn has ended (stopped, interrupted) or is gone. */
function over(parent: TurnRecord | undefined): boolean {
  return parent === undefined || FINAL_TURN_STATES.includes(parent.status);
}

/** True for a leaf that has ended (done, failed or timed out). */
function ended(leaf: LeafRecord): boolean {
  return !UNFINISHED.has(leaf.status);
}

/**
 * Subagent leaves as jobs (hosted mode): a batch's parent turn parks, and each leaf that may start (no
 * earlier leaf writing where it writes is still open) is sent as a job keyed by the leaf, so one waits
 * at a time. Any worker takes it and runs the leaf only if it wins the store's claim on it (a leaf a
 * dead worker left is taken over from its child turn, as a resume does). The worker that ends a batch's
 * last leaf finishes the batch and sends the parent's continuation; a sweep makes up for lost sends and
 * dead workers.
 */
export class LeafJobs {
  /** The sweep, and the leaves this process runs now (so `stop` can wait for them). */
  private readonly upkeep: JobUpkeep;

  constructor(private readonly options: LeafJobsOptions) {
    this.upkeep = new JobUpkeep(options.runtime, 'leaves to take over', () => this.sweepOnce());
  }

  /** How many leaves run in this process now. */
  get busy(): number {
    return this.upkeep.busy;
  }

  /** Sends the leaves that may start of every running batch of turn `turnId` (just parked on them). */
  async sendTurnLeaves(turnId: string): Promise<void> {
    const store = this.options.runtime.options.store;
    const turn = await store.getTurn(turnId);
    if (!turn) return;
    for (const batch of await store.listBatches({ parentSessionId: turn.sessionId, unfinished: true })) {
      if (batch.turnId === turnId) await this.sendReady(batch);
    }
  }

  /** Starts working on leaf jobs here, `concurrency` at once, with a sweep for lost and orphaned leaves. */
  async work(concurrency: number): Promise<void> {
    await this.options.queue.work(JOB_KINDS.leaf, { concurrency }, (data) => this.run(data));
    this.upkeep.sweepEvery(this.options.sweepMs ?? 5_000);
  }

  /** Stops the sweep and waits for the leaves this process runs to end. */
  async stop(): Promise<void> {
    await this.upkeep.stop();
  }

  private async send(leaf: LeafRecord): Promise<void> {
    await sendLeafJob(this.options.queue, leaf);
  }

  /** Sends each queued leaf whose earlier writers of the same paths have all ended. */
  private async sendReady(batch: BatchRecord): Promise<void> {
    const before = writersBefore(
      batch.leaves.map((l) => contractFromJson(l.contract).writes),
      pathBase(this.options.runtime),
    );
    for (const [i, leaf] of batch.leaves.entries()) {
      if (leaf.status !== 'queued') continue;
      if ((before[i] ?? []).every((j) => ended(batch.leaves[j] as LeafRecord))) await this.send(leaf);
    }
  }

  /** One leaf job: runs the leaf (or takes it over, or records how it ended) unless it needs nobody now. */
  private async run(data: JsonObject): Promise<void> {
    const { batchId, leafId } = data;
    if (typeof batchId !== 'string' || typeof leafId !== 'string') return;
    const store = this.options.runtime.options.store;
    const batch = await store.getBatch(batchId);
    const leaf = batch?.leaves.find((l) => l.id === leafId);
    if (!batch || !leaf || batch.status !== 'running') return;
    const parent = await this.parentTurn(batch);
    // Parked on a question still open: its answer (or its deadline, by the sweep) sends it again.
    if (!over(parent) && (await this.parked(leaf))) return;
    if (!ended(leaf)) await this.upkeep.track(this.runLeaf(batch, leaf, parent));
    await this.afterLeaf(batchId);
  }

  private async runLeaf(batch: BatchRecord, leaf: LeafRecord, parent: TurnRecord | undefined): Promise<void> {
    const { runtime } = this.options;
    const parentTurnId = batch.turnId ?? '';
    const controller = new AbortController();
    // A person who stops the parent turn (on any process) stops its leaves.
    const unsubscribe = runtime.signals.subscribe(signalTopics.stopTurn(batch.parentSessionId), () =>
      controller.abort(),
    );
    try {
      const parentOver = over(parent);
      if (parentOver) controller.abort();
      const sink = this.options.events;
      const env: LeafEnv = {
        ...(await batchEnv(runtime, batch, {
          ...this.options.subagents,
          signal: controller.signal,
          onEvent: (event) => sink?.(batch.parentSessionId, parentTurnId, event),
        })),
        // A question parks the leaf's turn: no worker is held while a person takes their time.
        parks: true,
      };
      // A leaf already started goes on below with the stop in force, so its turn records how it ended.
      if (controller.signal.aborted && leaf.status === 'queued') {
        await this.endUnstarted(env, leaf, parentOver ? parent?.status : 'stopped');
        return;
      }
      // A second job for a leaf this process runs already (sent again while the first was under way).
      if (leaf.childSessionId !== undefined && runtime.isRunning(leaf.childSessionId)) return;
      let step: Awaited<ReturnType<typeof planLeaf>>;
      try {
        step = await planLeaf(env, leaf);
      } catch (error) {
        // Its child turn runs in a live process: that process ends it.
        if (error instanceof ToolseamError && error.code === 'batch_busy') return;
        throw error;
      }
      // Claimed a moment ago by a worker that has not started its turn yet: left to that worker.
      if (step.kind === 'run' && step.requeue && !this.claimerGone(leaf)) return;
      const work = await applyLeafStep(env, step);
      if (work === undefined) return;
      if (work.start.kind === 'fresh') {
        const session = await runtime.session(childSessionId(leaf), leafSessionOptions(env, leaf));
        // Another worker claimed it first: that worker runs it.
        if (!(await runtime.options.store.claimLeaf(leaf.id, session.id))) return;
      }
      this.options.onLeaf?.(leaf.id);
      await runLeaf(env, leaf, work.start);
    } finally {
      unsubscribe();
    }
  }

  /** A leaf of a parent turn that has ended as `parentStatus` (stopped, interrupted) never starts. */
  private async endUnstarted(
    env: LeafEnv,
    leaf: LeafRecord,
    parentStatus: TurnRecord['status'] | undefined,
  ): Promise<void> {
    const what = parentStatus === undefined ? 'is gone' : parentEnding(parentStatus);
    await finishLeaf(env, leaf, {
      status: 'failed',
      errors: [`the batch's parent turn ${what} before this leaf started`],
    });
  }

  /** True when a leaf marked running without a turn was claimed longer ago than a live worker takes. */
  private claimerGone(leaf: LeafRecord): boolean {
    const started = leaf.startedAt === undefined ? Number.NaN : Date.parse(leaf.startedAt);
    const silentMs = this.options.runtime.options.hosted?.ownerSilentMs ?? 120_000;
    return Number.isNaN(started) || Date.now() - started > silentMs;
  }

  /**
   * After a leaf ended: the leaves it held back are sent; when it was the batch's last, the batch is
   * finished (`done` when every leaf is) and the parent turn's continuation sent.
   */
  private async afterLeaf(batchId: string): Promise<void> {
    const store = this.options.runtime.options.store;
    const batch = await store.getBatch(batchId);
    if (batch?.status !== 'running') return;
    if (!batch.leaves.every(ended)) {
      await this.sendReady(batch);
      return;
    }
    await store.finishBatch(batchId, batch.leaves.every((l) => l.status === 'done') ? 'done' : 'failed');
    if (batch.turnId !== undefined) await this.options.continueTurn(batch.turnId);
  }

  /**
   * Sends again what a lost send or a dead worker left, for every running batch whose parent turn is
   * parked: queued leaves that may start, leaves whose child turn's worker is gone, batches whose last
   * leaf ended without the batch being finished. Never rejects.
   */
  sweep(): Promise<void> {
    return this.upkeep.sweepNow();
  }

  private async sweepOnce(): Promise<void> {
    const store = this.options.runtime.options.store;
    for (const batch of await store.listBatches({ unfinished: true })) {
      const parent = await this.parentTurn(batch);
      // Run in-process by a live turn (or left by a dead one: the turn sweep sends it, and it parks).
      if (parent === undefined || parent.owner !== QUEUED_OWNER) continue;
      if (batch.leaves.every(ended)) {
        await this.afterLeaf(batch.id);
        continue;
      }
      await this.sendReady(batch);
      // A leaf that parked as its parent was being stopped: its job ends it now, not at its deadline.
      for (const leaf of batch.leaves) {
        if (leaf.status === 'running' && (await this.orphaned(leaf, over(parent)))) await this.send(leaf);
      }
    }
  }

  /**
   * True for a running leaf no live process drives: its child turn's owner is gone, or it has none, or
   * its turn is parked on a question answered or past its deadline.
   */
  private async orphaned(leaf: LeafRecord, parentOver: boolean): Promise<boolean> {
    const { runtime } = this.options;
    const turn = await this.childTurn(leaf);
    if (turn === undefined) return this.claimerGone(leaf);
    if (FINAL_TURN_STATES.includes(turn.status)) return true;
    if (!parentOver && (await waitsForAnswer(runtime.options.store, turn))) return false;
    return turn.owner !== runtime.owner && !runtime.ownerAlive(turn);
  }

  /** The batch's parent turn, if it still exists. */
  private async parentTurn(batch: BatchRecord): Promise<TurnRecord | undefined> {
    return batch.turnId === undefined ? undefined : this.options.runtime.options.store.getTurn(batch.turnId);
  }

  /** True for a leaf whose turn is parked on a question that can still be answered. */
  private async parked(leaf: LeafRecord): Promise<boolean> {
    if (leaf.status !== 'running') return false;
    const turn = await this.childTurn(leaf);
    return turn !== undefined && (await waitsForAnswer(this.options.runtime.options.store, turn));
  }

  /** The latest turn of a leaf's child session, if it has one. */
  private async childTurn(leaf: LeafRecord): Promise<TurnRecord | undefined> {
    const sessionId = leaf.childSessionId ?? childSessionId(leaf);
    return (await this.options.runtime.options.store.listTurns({ sessionId })).at(-1);
  }
}
