import type { ToolseamConfig } from '../config.js';
import type { JobQueue } from '../core/job-queue.js';
import type { Logger } from '../core/logger.js';
import type { QueueConfig } from '../queue-config.js';
import type { AutomationJobs } from '../runtime/jobs/automation-jobs.js';
import type { TurnEventSink, TurnJobs } from '../runtime/jobs/turn-jobs.js';
import type { Runtime } from '../runtime/runtime.js';
import type { HostedOptions } from '../runtime/runtime-options.js';
import type { LeafEventSink, LeafJobs } from '../runtime/subagents/leaf-jobs.js';

/** The runtime settings of a process in a hosted deployment, and the hook its answers go through. */
export interface HostedSetup {
  readonly runtime: { readonly options: HostedOptions; readonly heartbeatMs: number };
  /** Set once the jobs exist: an approval answered before that finds its turn by the sweep. */
  bind(jobs: TurnJobs, leaves?: LeafJobs): void;
}

/** What `hostedRuntime` needs: whether this process works on turns (parks them) or only sends them. */
export function hostedSetup(queue: QueueConfig, works: boolean): HostedSetup {
  let bound: TurnJobs | undefined;
  let leaves: LeafJobs | undefined;
  const takeoverMs = (queue.takeoverSeconds ?? 20) * 1000;
  return {
    runtime: {
      options: {
        parkApprovals: works,
        parkBatches: works,
        ownerSilentMs: takeoverMs,
        onAnswered: async (approval) => {
          await bound?.answered(approval);
        },
        // Before the leaf jobs exist nothing parks; a lost send is made good by their sweep.
        onBatchParked: async (turnId) => {
          await leaves?.sendTurnLeaves(turnId);
        },
      },
      // Four beats within the silence that gives a worker up.
      heartbeatMs: Math.max(1_000, Math.floor(takeoverMs / 4)),
    },
    bind(jobs, leafJobs) {
      bound = jobs;
      leaves = leafJobs;
    },
  };
}

/** The jobs of one hosted process, started. */
export interface HostedJobs {
  readonly queue: JobQueue;
  readonly turns: TurnJobs;
  /** Subagent leaves as jobs (a process that works on jobs). */
  readonly leaves?: LeafJobs;
  readonly automations?: AutomationJobs;
  /** Stops taking jobs, lets the ones under way end (up to `timeoutMs`), closes the queue. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * Opens the queue (pg-boss, imported only here and only in hosted mode) and the turn, leaf and
 * automation jobs on `runtime`; with `events`, this process works on them (`toolseam worker`, or
 * `serve` with "work").
 */
export async function startHostedJobs(
  runtime: Runtime,
  options: {
    readonly queue: QueueConfig;
    readonly setup: HostedSetup;
    readonly config: ToolseamConfig;
    readonly logger: Logger;
    readonly events?: TurnEventSink;
    /** Where the leaves run here send their progress and questions (with `events`). */
    readonly leafEvents?: LeafEventSink;
    /** Override of the config's concurrency (`--concurrency`). */
    readonly concurrency?: number;
  },
): Promise<HostedJobs> {
  const { openPgBossQueue } = await import('../queue/index.js');
  const { TurnJobs } = await import('../runtime/jobs/turn-jobs.js');
  const q = options.queue;
  const queue = await openPgBossQueue({
    url: q.url,
    ...(q.schema ? { schema: q.schema } : {}),
    logger: options.logger,
  });
  const turns = new TurnJobs({
    runtime,
    queue,
    ...(options.events ? { events: options.events } : {}),
    sweepMs: (q.sweepSeconds ?? 5) * 1000,
  });
  const concurrency = options.concurrency ?? q.concurrency ?? 4;
  let leaves: LeafJobs | undefined;
  if (options.events) {
    const { LeafJobs } = await import('../runtime/subagents/leaf-jobs.js');
    leaves = new LeafJobs({
      runtime,
      queue,
      continueTurn: (turnId) => turns.enqueue(turnId),
      ...(options.leafEvents ? { events: options.leafEvents } : {}),
      sweepMs: (q.sweepSeconds ?? 5) * 1000,
    });
  }
  options.setup.bind(turns, leaves);
  let automations: AutomationJobs | undefined;
  if (options.config.automations) {
    const { createAutomationScheduler } = await import('../create-automations.js');
    const { AutomationJobs } = await import('../runtime/jobs/automation-jobs.js');
    const scheduler = createAutomationScheduler(runtime, { config: options.config, logger: options.logger });
    automations = new AutomationJobs({ runner: scheduler.runner, queue });
    if (options.events) await automations.work(Math.max(1, Math.floor(concurrency / 2)));
    automations.startSending();
  }
  if (options.events) await turns.work(concurrency);
  // Leaves have slots of their own: a parked parent holds none, so a batch never starves its leaves.
  await leaves?.work(concurrency);
  return {
    queue,
    turns,
    ...(leaves ? { leaves } : {}),
    ...(automations ? { automations } : {}),
    async stop(timeoutMs) {
      await automations?.stop();
      await queue.stop({ timeoutMs });
      await turns.stop();
      await leaves?.stop();
    },
  };
}
