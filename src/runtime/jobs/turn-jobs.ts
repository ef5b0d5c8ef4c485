import { ToolseamError } from '../../core/errors.js';
import type { RuntimeEvent } from '../../core/events.js';
import type { JobQueue } from '../../core/job-queue.js';
import type { JsonObject } from '../../core/json.js';
import type { ApprovalRecord, TurnRecord } from '../../core/session-store.js';
import { leafOfSession, turnToResume } from '../resume/leaf-turns.js';
import { QUEUED_OWNER } from '../resume/turn-owner.js';
import type { Runtime } from '../runtime.js';
import { JOB_KINDS } from './job-kinds.js';
import { JobUpkeep } from './job-upkeep.js';
import { sendLeafJob } from './leaf-job.js';
import { waitsForAnswer } from './waits-for-answer.js';

/** Where a turn's events go while a worker runs it: the store's event log, read by every `serve`. */
export type TurnEventSink = (
  first: Extract<RuntimeEvent, { type: 'turn-start' }>,
  rest: AsyncIterator<RuntimeEvent>,
) => Promise<void>;

/** How turns are run as jobs. */
export interface TurnJobsOptions {
  readonly runtime: Runtime;
  readonly queue: JobQueue;
  /** Needed to work on turns (a worker); a process that only sends (a `serve` that does not work) needs none. */
  readonly events?: TurnEventSink;
  /** How often a worker looks for turns a dead process left and for parked turns whose answer came (default 5 s). */
  readonly sweepMs?: number;
  /** Told when this process takes a turn job, before it reads the turn (the scale bench's clock). */
  readonly onJob?: (turnId: string) => void;
}

/** Codes of refusals that mean the job has nothing to do (someone else has the turn, or it is over). */
const NOTHING_TO_DO = new Set(['turn_busy', 'turn_finished', 'unknown_turn', 'leaf_turn', 'turn_running']);

/**
 * Codes of refusals this process cannot get past (the turn started on another model, in a mode this
 * version does not know): left for a worker that can, or for `toolseam resume`, and said once.
 */
const NOT_HERE = new Set(['model_mismatch', 'unknown_mode', 'unknown_agent']);

/**
 * Turns as jobs (hosted mode): a stored turn is sent to the queue and a worker drives it with the
 * runtime's own resume, so whoever runs it goes on from the store (calls claimed once, the model told of
 * calls cut short). A turn that waits for a person is parked; its answer, or its deadline, sends it again.
 * A turn whose worker died is found by the sweep, by the store's heartbeats, and sent again.
 */
export class TurnJobs {
  /** Turns this process cannot run, already said. */
  private readonly refused = new Set<string>();
  /** The sweep, and the turns this process drives now (so `stop` can wait for them). */
  private readonly upkeep: JobUpkeep;

  constructor(private readonly options: TurnJobsOptions) {
    this.upkeep = new JobUpkeep(options.runtime, 'turns to take over', () => this.sweepOnce());
  }

  /** Puts a stored turn on the queue (at most one job waits per turn). */
  async enqueue(turnId: string): Promise<void> {
    await this.options.queue.send(JOB_KINDS.turn, { turnId }, { key: turnId });
  }

  /**
   * Sends the continuation of the turn whose approval was just answered: a leaf's job when the turn is
   * a leaf's, parked on its own (a leaf run as a job), else the turn's (a leaf's runs with its batch).
   */
  async answered(approval: ApprovalRecord): Promise<void> {
    const store = this.options.runtime.options.store;
    const turn = await store.getTurn(approval.turnId);
    const of = turn === undefined ? undefined : await leafOfSession(store, turn.sessionId);
    if (of !== undefined && turn?.owner === QUEUED_OWNER && of.batch.status === 'running') {
      await sendLeafJob(this.options.queue, of.leaf);
      return;
    }
    await this.enqueue(await turnToResume(store, approval.turnId));
  }

  /** Starts working on turn jobs here, `concurrency` at once, with a sweep for orphaned and answered turns. */
  async work(concurrency: number): Promise<void> {
    if (!this.options.events) throw new Error('TurnJobs.work needs an event sink');
    await this.options.queue.work(JOB_KINDS.turn, { concurrency }, (data) => this.run(data));
    this.upkeep.sweepEvery(this.options.sweepMs ?? 5_000);
  }

  /** Stops the sweep and waits for the turns this process drives to end or park. */
  async stop(): Promise<void> {
    await this.upkeep.stop();
  }

  /** One turn job: drives the turn until it ends or parks, unless it needs nobody now. */
  private async run(data: JsonObject): Promise<void> {
    const turnId = typeof data.turnId === 'string' ? data.turnId : undefined;
    if (turnId === undefined) return;
    this.options.onJob?.(turnId);
    const { runtime } = this.options;
    const turn = await runtime.options.store.getTurn(turnId);
    if (!turn || (turn.status !== 'running' && turn.status !== 'waiting_approval')) return;
    // Driven by a live process: the sweep sends it again should that process die.
    if (turn.owner !== QUEUED_OWNER && runtime.ownerAlive(turn)) return;
    if (await this.stillParked(turn)) return;
    let events: AsyncIterable<RuntimeEvent>;
    try {
      events = await runtime.resumeTurn(turnId);
    } catch (error) {
      if (error instanceof ToolseamError && NOTHING_TO_DO.has(error.code)) return;
      if (error instanceof ToolseamError && NOT_HERE.has(error.code)) {
        if (!this.refused.has(turnId)) {
          this.refused.add(turnId);
          const message = `turn ${turnId} is not run by this worker: ${error.message}`;
          runtime.logger.log({ level: 'warn', scope: 'jobs', message });
        }
        return;
      }
      throw error;
    }
    const iterator = events[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done || first.value.type !== 'turn-start') return;
    await this.upkeep.track((this.options.events as TurnEventSink)(first.value, iterator));
  }

  /**
   * True for a parked turn with nothing to do yet: its question still open and in time (until it is
   * answered), or a batch of its still running (until its last leaf ends).
   */
  private async stillParked(turn: TurnRecord): Promise<boolean> {
    if (turn.owner !== QUEUED_OWNER) return false;
    const store = this.options.runtime.options.store;
    const batches = await store.listBatches({ parentSessionId: turn.sessionId, unfinished: true });
    if (batches.some((b) => b.turnId === turn.id)) return true;
    return waitsForAnswer(store, turn);
  }

  /**
   * Sends again every unfinished turn no live process drives, except parked turns still waiting for
   * their answer: turns of dead workers, turns queued while the queue lost a job, parked turns answered
   * from a process without the queue (`toolseam approve`) or past their deadline. Never rejects.
   */
  sweep(): Promise<void> {
    return this.upkeep.sweepNow();
  }

  private async sweepOnce(): Promise<void> {
    const { runtime } = this.options;
    const sent = new Set<string>();
    for (const turn of await runtime.orphanedTurns()) {
      if (await this.stillParked(turn)) continue;
      const target = await turnToResume(runtime.options.store, turn.id);
      if (sent.has(target)) continue;
      sent.add(target);
      // A dead worker's leaf whose parent is parked on its batch goes on as a leaf job (their sweep).
      const parent = target === turn.id ? turn : await runtime.options.store.getTurn(target);
      if (parent !== undefined && parent !== turn && (await this.stillParked(parent))) continue;
      await this.enqueue(target);
    }
  }
}
