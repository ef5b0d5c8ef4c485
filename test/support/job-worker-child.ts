// A hosted worker as a real process: the job queue on PostgreSQL (pg-boss), the session store the test
// shares, the stand-in model, and tools that log each run with this pid (and each leaf it runs).
// argv[2]: JSON of WorkerChildOptions. Prints READY once it works on jobs.
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createModelAdapter } from '../../src/providers/index.js';
import { openPgBossQueue } from '../../src/queue/index.js';
import { AutomationRunner } from '../../src/runtime/automations/automation-runner.js';
import { automationSettings } from '../../src/runtime/automations/automation-settings.js';
import { AutomationJobs } from '../../src/runtime/jobs/automation-jobs.js';
import { TurnJobs } from '../../src/runtime/jobs/turn-jobs.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { enableSubagents } from '../../src/runtime/subagents/index.js';
import { LeafJobs } from '../../src/runtime/subagents/leaf-jobs.js';
import { TurnHub } from '../../src/server/turn-hub.js';
import { openStore } from '../../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';

/** What the test tells its worker. */
export interface WorkerChildOptions {
  /** The session store: a SQLite file or a postgres:// URL (`?schema=` for the test's own). */
  readonly db: string;
  readonly queueUrl: string;
  readonly schema: string;
  readonly model: Record<string, unknown>;
  /** Each tool run appends `start <tag> <pid>` and, when it finishes, `done <tag> <pid>` here. */
  readonly log: string;
  /** How long `slow_step` takes. */
  readonly slowMs: number;
  readonly concurrency?: number;
  /** Also send and work on due automations. */
  readonly automations?: boolean;
  /** How often the worker sweeps for turns to take over (ms). */
  readonly sweepMs?: number;
  /** Offer `subagent_run` (batches of leaves). */
  readonly subagents?: boolean;
  /** Run leaves as jobs of their own, the parent turn parked (default true, as `toolseam worker` does). */
  readonly leafJobs?: boolean;
}

/** The tools of the job tests: `slow_step` runs at once, `careful_step` asks first. */
export function jobTools(log: string, slowMs: number) {
  const run = async (tag: string): Promise<string> => {
    appendFileSync(log, `start ${tag} ${process.pid}\n`);
    await sleep(slowMs);
    appendFileSync(log, `done ${tag} ${process.pid}\n`);
    return `finished ${tag}`;
  };
  const slow = defineTool({
    name: 'slow_step',
    description: 'Do one slow step of the work.',
    risk: 'safe',
    fields: { tag: field.string({ maxLength: 200 }) },
    handler: (a) => run(a.tag),
  });
  const careful = defineTool({
    name: 'careful_step',
    description: 'Do one step that needs a person to agree first.',
    risk: 'caution',
    fields: { tag: field.string({ maxLength: 200 }) },
    handler: (a) => run(a.tag),
  });
  return inProcessProvider({ name: 'steps', tools: [slow, careful] });
}

const raw = process.argv[2];
if (raw) {
  const o = JSON.parse(raw) as WorkerChildOptions;
  const store = await openStore(o.db);
  const registry = createToolRegistry();
  registry.register(jobTools(o.log, o.slowMs));
  let jobs: TurnJobs | undefined;
  let leaves: LeafJobs | undefined;
  const runtime = new Runtime({
    model: createModelAdapter(o.model as never),
    registry,
    store,
    heartbeatMs: 1_000,
    hosted: {
      parkApprovals: true,
      parkBatches: o.leafJobs !== false,
      ownerSilentMs: 4_000,
      onAnswered: async (approval) => jobs?.answered(approval),
      onBatchParked: async (turnId) => leaves?.sendTurnLeaves(turnId),
    },
  });
  if (o.subagents) enableSubagents(runtime);
  const hub = new TurnHub({ store, logger: runtime.logger, signals: runtime.signals });
  const queue = await openPgBossQueue({ url: o.queueUrl, schema: o.schema });
  jobs = new TurnJobs({
    runtime,
    queue,
    events: (first, rest) => hub.run(first, rest, () => undefined).ended,
    sweepMs: o.sweepMs ?? 1_000,
  });
  await jobs.work(o.concurrency ?? 2);
  if (o.leafJobs !== false) {
    const turns = jobs;
    leaves = new LeafJobs({
      runtime,
      queue,
      continueTurn: (turnId) => turns.enqueue(turnId),
      events: (sessionId, turnId, event) => hub.keep(sessionId, turnId, event),
      sweepMs: o.sweepMs ?? 1_000,
      onLeaf: (leafId) => appendFileSync(o.log, `leaf ${leafId} ${process.pid}\n`),
    });
    await leaves.work(o.concurrency ?? 2);
  }
  if (o.automations) {
    const runner = new AutomationRunner({
      runtime: runtime.options,
      settings: automationSettings(undefined),
    });
    const automations = new AutomationJobs({
      runner,
      queue,
      pollMs: 1_000,
      onRun: (outcome) => appendFileSync(o.log, `automation ${outcome.automation} ${process.pid}\n`),
    });
    await automations.work(1);
    automations.startSending();
  }
  process.stdout.write('READY\n');
  process.on('SIGTERM', () => {
    void (async () => {
      await queue.stop({ timeoutMs: 2_000 });
      await jobs?.stop();
      await leaves?.stop();
      process.exit(0);
    })();
  });
}
