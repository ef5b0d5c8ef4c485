import type { SessionStore } from '../../src/core/session-store.js';
import type { Signals } from '../../src/core/signals.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { createModelAdapter } from '../../src/providers/index.js';
import { openPgBossQueue } from '../../src/queue/index.js';
import { TurnJobs } from '../../src/runtime/jobs/turn-jobs.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { enableSubagents } from '../../src/runtime/subagents/index.js';
import { LeafJobs } from '../../src/runtime/subagents/leaf-jobs.js';
import { TurnHub } from '../../src/server/turn-hub.js';
import { openStore } from '../../src/store/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { TEST_PG } from './job-processes.js';

/** What a worker runtime in a test process is made of. */
export interface JobWorkerSettings {
  /** The store: a postgres:// URL with its own `?schema=`. */
  readonly db: string;
  /** The pg-boss schema the deployment's workers share. */
  readonly jobSchema: string;
  /** The stand-in's model config. */
  readonly model: unknown;
  /** The tools the worker's leaves and turns run. */
  readonly tools: ToolProvider;
  /** Cross-process signals (LISTEN/NOTIFY); none: this runtime's own only. */
  readonly signals?: Signals;
  /** How long a person's question waits. */
  readonly approvalMs?: number;
  /** Told of each leaf this worker starts or takes over. */
  readonly onLeaf?: (leafId: string) => void;
}

/** A worker runtime as `toolseam worker` sets it up, in the test's process. */
export interface JobWorker {
  readonly runtime: Runtime;
  readonly store: SessionStore;
  readonly turns: TurnJobs;
  readonly leaves: LeafJobs;
  /** Stops taking jobs, waits for its work, and closes the runtime. */
  close(): Promise<void>;
}

/**
 * A worker on PostgreSQL: turns and leaves as jobs (two of each at once), approvals and batches parked,
 * a one-second heartbeat and sweep, and leaf events kept among their parent turn's.
 */
export async function startJobWorker(settings: JobWorkerSettings): Promise<JobWorker> {
  const store = await openStore(settings.db);
  const registry = createToolRegistry();
  registry.register(settings.tools);
  let turns: TurnJobs | undefined;
  let leaves: LeafJobs | undefined;
  const runtime = new Runtime({
    model: createModelAdapter(settings.model as never),
    registry,
    store,
    heartbeatMs: 1_000,
    ...(settings.signals ? { signals: settings.signals } : {}),
    ...(settings.approvalMs === undefined ? {} : { approvals: { timeoutMs: settings.approvalMs } }),
    hosted: {
      parkApprovals: true,
      parkBatches: true,
      ownerSilentMs: 4_000,
      onAnswered: async (approval) => turns?.answered(approval),
      onBatchParked: async (turnId) => leaves?.sendTurnLeaves(turnId),
    },
  });
  enableSubagents(runtime);
  const hub = new TurnHub({ store, logger: runtime.logger, signals: runtime.signals });
  const queue = await openPgBossQueue({ url: TEST_PG, schema: settings.jobSchema });
  const turnJobs = new TurnJobs({
    runtime,
    queue,
    events: (first, rest) => hub.run(first, rest, () => undefined).ended,
    sweepMs: 1_000,
  });
  const leafJobs = new LeafJobs({
    runtime,
    queue,
    continueTurn: (turnId) => turnJobs.enqueue(turnId),
    events: (sessionId, turnId, event) => hub.keep(sessionId, turnId, event),
    sweepMs: 1_000,
    ...(settings.onLeaf ? { onLeaf: settings.onLeaf } : {}),
  });
  turns = turnJobs;
  leaves = leafJobs;
  await turnJobs.work(2);
  await leafJobs.work(2);
  return {
    runtime,
    store,
    turns: turnJobs,
    leaves: leafJobs,
    async close() {
      await queue.stop({ timeoutMs: 1_000 });
      await turnJobs.stop();
      await leafJobs.stop();
      await hub.flushed();
      await runtime.close();
    },
  };
}
