import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModelAdapter } from '../src/providers/index.js';
import { Runtime } from '../src/runtime/runtime.js';
import { compileBatch, enableSubagents, leafPrompt } from '../src/runtime/subagents/index.js';
import { openSessionStore } from '../src/store/index.js';
import { type ScriptTurn, type StandIn, startStandIn } from '../src/testing/index.js';
import { defineTool, field, inProcessProvider } from '../src/tools/index.js';
import { createToolRegistry } from '../src/tools/registry/tool-registry.js';
import type { BenchFigure } from './run.js';

const LEAVES = 10;
const CONCURRENCY = 4;
/** Simulated model latency of every leaf's round trip. */
const MODEL_DELAY_MS = 20;
const ROUNDS = 12;

function tools() {
  const list = Array.from({ length: 24 }, (_, i) =>
    defineTool({
      name: `bench_tool_${i}`,
      description: `Bench tool ${i}: looks up one kind of record by a query.`,
      risk: 'safe',
      readOnly: true,
      fields: {
        query: field.string({ maxLength: 200 }),
        limit: field.integer({ min: 1, max: 50, optional: true }),
      },
      handler: (a) => `found ${a.query}`,
    }),
  );
  return inProcessProvider({ name: 'bench', tools: list });
}

function leafContracts(round: string) {
  return Array.from({ length: LEAVES }, (_, i) => ({
    task: `Look up record ${i} of ${round} and report it`,
    title: `Record ${i}`,
    objective: 'The record is found and summarised in one line',
    output_format: 'One line of plain text naming the record',
    boundary: 'Read only; change nothing anywhere',
  }));
}

/** Queues a round: the parent's call, one answer per leaf (after the model delay), the parent's last answer. */
function queue(
  standIn: StandIn,
  parent: string,
  call: { name: string; arguments: Record<string, unknown> },
  tasks: readonly { task: string }[],
): void {
  standIn.push(
    { match: { lastUserIncludes: parent }, toolCalls: [call] },
    ...tasks.map(
      (t): ScriptTurn => ({
        match: { lastUserIncludes: `Task: ${t.task}` },
        delayMs: MODEL_DELAY_MS,
        text: 'ok',
      }),
    ),
    { match: { lastUserIncludes: parent }, text: 'all done' },
  );
}

/** One parent turn that fans out to 10 leaves through `subagent_run`. */
async function batchRound(runtime: Runtime, standIn: StandIn, round: string): Promise<number> {
  const tasks = leafContracts(round);
  const parent = `batch ${round}`;
  queue(standIn, parent, { name: 'subagent_run', arguments: { tasks } }, tasks);
  const start = performance.now();
  for await (const _ of await (await runtime.session(`p-${round}`)).send(parent)) {
    // drain
  }
  return performance.now() - start;
}

/** The same work without a batch: a parent turn with one trivial call, then 10 plain sessions, 4 at a time. */
async function plainRound(runtime: Runtime, standIn: StandIn, round: string): Promise<number> {
  const tasks = leafContracts(round);
  const compiled = compileBatch({ tasks }, { knownAgents: [], base: process.cwd() });
  const prompts = compiled.leaves.map((l) => leafPrompt(l.title, l.contract));
  const parent = `plain ${round}`;
  queue(standIn, parent, { name: 'bench_tool_0', arguments: { query: 'x' } }, tasks);
  const start = performance.now();
  for await (const _ of await (await runtime.session(`q-${round}`)).send(parent)) {
    // drain
  }
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < prompts.length; i = next++) {
      for await (const _ of await (await runtime.session(`q-${round}-${i}`)).send(prompts[i] as string)) {
        // drain
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function compileMicros(): number {
  const args = { tasks: leafContracts('compile') };
  const options = { knownAgents: [], base: process.cwd() };
  for (let i = 0; i < 500; i += 1) compileBatch(args, options);
  const n = 5_000;
  const start = performance.now();
  for (let i = 0; i < n; i += 1) compileBatch(args, options);
  return ((performance.now() - start) / n) * 1000;
}

/** Overhead of a 10-leaf batch beyond its leaves' model time, against the same sessions run by hand. */
export async function bench(): Promise<BenchFigure[]> {
  const standIn = await startStandIn({ family: 'openai' });
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-subagents-'));
  const registry = createToolRegistry();
  registry.register(tools());
  const model = createModelAdapter({
    ...standIn.modelConfig('bench-model'),
    retry: { maxRetries: 0 },
  } as never);
  const store = openSessionStore({ path: join(dir, 'bench.db') });
  const runtime = new Runtime({ model, registry, store, workspace: [dir] });
  enableSubagents(runtime, { concurrency: CONCURRENCY });
  try {
    for (let i = 0; i < 2; i += 1) {
      await batchRound(runtime, standIn, `warm-b${i}`);
      await plainRound(runtime, standIn, `warm-p${i}`);
    }
    const batch: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      // Interleaved, so drift on a shared machine hits both alike.
      batch.push(await batchRound(runtime, standIn, `b${i}`));
      plain.push(await plainRound(runtime, standIn, `p${i}`));
    }
    const b = median(batch);
    const p = median(plain);
    const modelWall = Math.ceil(LEAVES / CONCURRENCY) * MODEL_DELAY_MS;
    return [
      { name: `compile a ${LEAVES}-leaf batch`, value: compileMicros(), unit: 'µs' },
      {
        name: `${LEAVES}-leaf batch turn (median of ${ROUNDS}), ${MODEL_DELAY_MS} ms model delay`,
        value: b,
        unit: 'ms',
      },
      { name: `same leaves as ${LEAVES} plain sessions + a 1-call parent turn`, value: p, unit: 'ms' },
      { name: `leaves' simulated model wall time (${CONCURRENCY} at once)`, value: modelWall, unit: 'ms' },
      { name: 'batch overhead beyond the same sessions run by hand', value: b - p, unit: 'ms' },
      { name: 'batch overhead per leaf', value: (b - p) / LEAVES, unit: 'ms' },
    ];
  } finally {
    await runtime.close();
    await standIn.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
