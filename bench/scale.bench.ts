import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { SessionStore } from '../src/core/session-store.js';
import { createModelAdapter } from '../src/providers/index.js';
import { openPgBossQueue } from '../src/queue/index.js';
import { TurnJobs } from '../src/runtime/jobs/turn-jobs.js';
import { Runtime } from '../src/runtime/runtime.js';
import { openStore } from '../src/store/index.js';
import { type ScriptRequest, type ScriptTurn, startStandIn } from '../src/testing/index.js';
import { createToolRegistry } from '../src/tools/registry/tool-registry.js';
import type { BenchFigure } from './run.js';
import { hostedTurnsPerSecond } from './scale-hosted.js';
import { percentile } from './stats.js';

const PG = process.env.TOOLSEAM_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const TURNS = 40;
const LATENCY_SAMPLES = 30;
/** Turns sent at once through the two serve processes, per worker count. */
const HOSTED_TURNS = 60;
const HOSTED_WORKERS = [1, 3];
const WORKER = fileURLToPath(new URL('./scale-worker.js', import.meta.url));

/** The stand-in's model: a message starting "slow" asks for `slow_step`; any other is answered at once. */
function answer(request: ScriptRequest): ScriptTurn {
  const last = request.messages.at(-1);
  if (last?.role === 'user' && last.content.startsWith('slow')) {
    return { toolCalls: [{ name: 'slow_step', arguments: { tag: last.content } }] };
  }
  return { text: 'Done: the answer is short.' };
}

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function startWorker(options: Record<string, unknown>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`a scale worker exited (${code}) before it was ready`)));
  });
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const c of children.splice(0)) {
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
  }
}

function lines(log: string): string[][] {
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' '))
    : [];
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the scale bench timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function allDone(store: SessionStore, ids: readonly string[]): Promise<boolean> {
  for (const id of ids) if ((await store.getTurn(id))?.status !== 'done') return false;
  return true;
}

/**
 * Hosted mode on this machine: one PostgreSQL (store and pg-boss queue), a sending runtime as `serve`
 * has it, 1 or 2 worker processes, the stand-in model answering at once. Figures: turns per second,
 * the queue's added latency (sent → a worker takes the job), and how long a dead worker's turn waits.
 */
export async function bench(): Promise<BenchFigure[]> {
  const tag = `scale_${process.pid}`;
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-scale-'));
  const log = join(dir, 'workers.log');
  const standIn = await startStandIn({ family: 'openai' });
  standIn.push(
    ...Array.from({ length: 4 * TURNS + 2 * HOSTED_TURNS + LATENCY_SAMPLES + 50 }, () => ({
      respond: answer,
    })),
  );
  const model = { ...standIn.modelConfig(), retry: { maxRetries: 0 } };
  const db = `${PG}?schema=${tag}_store`;
  const store = await openStore(db);
  const runtime = new Runtime({
    model: createModelAdapter(model as never),
    registry: createToolRegistry(),
    store,
  });
  const queue = await openPgBossQueue({ url: PG, schema: `${tag}_jobs` });
  const jobs = new TurnJobs({ runtime, queue });
  const children: ChildProcess[] = [];
  const base = { db, queueUrl: PG, schema: `${tag}_jobs`, model, log, slowMs: 60_000, concurrency: 4 };
  const send = async (text: string): Promise<{ id: string; at: number }> => {
    const session = await runtime.session();
    const turn = await runtime.queueTurn(session.id, text);
    const at = Date.now();
    await jobs.enqueue(turn.id);
    return { id: turn.id, at };
  };
  const figures: BenchFigure[] = [];
  try {
    for (const workers of [1, 2]) {
      for (let i = 0; i < workers; i++) children.push(await startWorker(base));
      const started = performance.now();
      const ids = await Promise.all(
        Array.from({ length: TURNS }, (_, i) => send(`quick ${i}`).then((s) => s.id)),
      );
      await until(() => allDone(store, ids), 300_000);
      const seconds = (performance.now() - started) / 1000;
      figures.push({
        name: `turns per second, ${workers} worker(s) × 4 at once`,
        value: TURNS / seconds,
        unit: 'turns/s',
      });
      await stopAll(children);
    }

    // The same through the processes a deployment runs: HTTP in, two serve, N workers, streams out.
    for (const workers of HOSTED_WORKERS) {
      figures.push(
        await hostedTurnsPerSecond({ db, baseURL: standIn.baseURL, dir, workers, turns: HOSTED_TURNS }),
      );
    }

    // The queue's own delay: one turn at a time to an idle worker, sent → the worker takes the job.
    children.push(await startWorker(base));
    const delays: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const { id, at } = await send(`quick latency ${i}`);
      await until(async () => (await store.getTurn(id))?.status === 'done', 60_000);
      const taken = lines(log).find((l) => l[0] === 'job' && l[1] === id);
      if (taken) delays.push(Number(taken[2]) - at);
    }
    const p50 = percentile(delays, 0.5);
    figures.push({
      name: 'queue added latency p50 (sent → job taken)',
      value: p50,
      unit: 'ms',
      target: '< 50 ms',
      ok: p50 < 50,
    });
    figures.push({ name: 'queue added latency p95', value: percentile(delays, 0.95), unit: 'ms' });

    // A worker killed in the middle of a turn (its tool runs a minute): how long until another takes it.
    children.push(await startWorker(base));
    const { id } = await send('slow takeover');
    await until(async () => lines(log).some((l) => l[0] === 'start' && l[1] === 'slow'), 60_000);
    const victim = Number(lines(log).find((l) => l[0] === 'start' && l[1] === 'slow')?.[3]);
    const dead = children.find((c) => c.pid === victim) as ChildProcess;
    const killedAt = Date.now();
    const gone = new Promise((r) => dead.once('exit', r));
    dead.kill('SIGKILL');
    await gone;
    children.splice(children.indexOf(dead), 1);
    await until(async () => {
      const owner = (await store.getTurn(id))?.owner ?? '';
      return owner !== '' && !owner.includes(`:${victim}/`) && owner !== 'queued';
    }, 120_000);
    const takeover = (Date.now() - killedAt) / 1000;
    figures.push({
      name: 'takeover of a killed worker’s turn (same host: pid seen gone)',
      value: takeover,
      unit: 's',
      target: '< 30 s',
      ok: takeover < 30,
    });
  } finally {
    await stopAll(children);
    await queue.stop({ timeoutMs: 1_000 }).catch(() => undefined);
    await runtime.close().catch(() => undefined);
    await standIn.close();
    await sql(
      `DROP SCHEMA IF EXISTS "${tag}_jobs" CASCADE; DROP SCHEMA IF EXISTS "${tag}_store" CASCADE; DROP SCHEMA IF EXISTS "${tag}_store_jobs" CASCADE`,
    ).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
