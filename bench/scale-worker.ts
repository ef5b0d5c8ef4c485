// A worker process of the scale bench: the job queue and the store on PostgreSQL, the stand-in model,
// one tool (`slow_step`) that takes `slowMs`. Writes `job <turnId> <epoch ms>` when it takes a turn
// job and `start <tag> <pid>` when the tool starts, to the log; prints READY once it works.
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createModelAdapter } from '../src/providers/index.js';
import { openPgBossQueue } from '../src/queue/index.js';
import { TurnJobs } from '../src/runtime/jobs/turn-jobs.js';
import { Runtime } from '../src/runtime/runtime.js';
import { TurnHub } from '../src/server/turn-hub.js';
import { openStore } from '../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../src/tools/index.js';
import { createToolRegistry } from '../src/tools/registry/tool-registry.js';

const o = JSON.parse(process.argv[2] as string) as {
  db: string;
  queueUrl: string;
  schema: string;
  model: Record<string, unknown>;
  log: string;
  slowMs: number;
  concurrency: number;
};
const slow = defineTool({
  name: 'slow_step',
  description: 'Do one slow step of the work.',
  risk: 'safe',
  fields: { tag: field.string({ maxLength: 200 }) },
  handler: async (a) => {
    appendFileSync(o.log, `start ${a.tag} ${process.pid}\n`);
    await sleep(o.slowMs);
    return `finished ${a.tag}`;
  },
});
const store = await openStore(o.db);
const registry = createToolRegistry();
registry.register(inProcessProvider({ name: 'steps', tools: [slow] }));
// The defaults of `toolseam worker` ("queue" without takeoverSeconds / sweepSeconds): 20 s, 5 s.
const takeoverMs = 20_000;
const runtime = new Runtime({
  model: createModelAdapter(o.model as never),
  registry,
  store,
  heartbeatMs: takeoverMs / 4,
  hosted: { parkApprovals: true, ownerSilentMs: takeoverMs },
});
const hub = new TurnHub({ store, logger: runtime.logger, signals: runtime.signals });
const queue = await openPgBossQueue({ url: o.queueUrl, schema: o.schema });
const jobs = new TurnJobs({
  runtime,
  queue,
  events: (first, rest) => hub.run(first, rest, () => undefined).ended,
  sweepMs: 5_000,
  onJob: (turnId) => appendFileSync(o.log, `job ${turnId} ${Date.now()} ${process.pid}\n`),
});
await jobs.work(o.concurrency);
process.stdout.write('READY\n');
