import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RuntimeEvent } from '../src/core/events.js';
import { createModelAdapter } from '../src/providers/index.js';
import { Runtime } from '../src/runtime/runtime.js';
import { startServer } from '../src/server/index.js';
import { openSessionStore } from '../src/store/index.js';
import { createToolRegistry } from '../src/tools/registry/tool-registry.js';
import type { BenchFigure } from './run.js';
import type { ReadMark } from './serve-clients.js';
import { percentile } from './stats.js';

const SESSIONS = 50;
const TURNS = 3;
/** Each answer: 240 characters streamed 4 at a time, 60 text deltas. */
const ANSWER = 'The quick brown fox jumps over the lazy dog; '.repeat(6).slice(0, 240);

/** When the runtime's own iterator handed each event of a turn to the server, in order, and what it was. */
type Yields = Map<string, { at: number; json: string }[]>;

const now = (): number => performance.timeOrigin + performance.now();

/** Wraps the runtime's sessions so each event's hand-over time is kept: the baseline the streams are measured against. */
function recordYields(runtime: Runtime, yields: Yields): void {
  const session = runtime.session.bind(runtime);
  runtime.session = async (id, options) => {
    const handle = await session(id, options);
    return {
      ...handle,
      send: async (text, sendOptions) => {
        const events = await handle.send(text, sendOptions);
        return (async function* () {
          let list: { at: number; json: string }[] = [];
          for await (const event of events as AsyncIterable<RuntimeEvent>) {
            if (event.type === 'turn-start') {
              list = [];
              yields.set(event.turnId, list);
            }
            const {
              sessionId: _s,
              turnId: _t,
              ...rest
            } = event as RuntimeEvent & { sessionId?: string; turnId?: string };
            list.push({ at: now(), json: JSON.stringify(rest) });
            yield event;
          }
        })();
      },
    };
  };
}

/** A worker of this bench (compiled next to it), and its first message. */
function worker<T>(file: string, data: unknown): { worker: Worker; first: Promise<T> } {
  const w = new Worker(new URL(file, import.meta.url), { workerData: data });
  const first = new Promise<T>((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
  return { worker: w, first };
}

/** The next message of `w`. */
const message = <T>(w: Worker): Promise<T> => new Promise((resolve) => w.once('message', resolve));

/** Lost and reordered events, and each event's added latency: the clients' reading against the runtime's yield. */
function compare(yields: Yields, marks: readonly ReadMark[]) {
  const byTurn = new Map<string, ReadMark[]>();
  for (const m of marks) {
    const list = byTurn.get(m.turnId);
    if (list) list.push(m);
    else byTurn.set(m.turnId, [m]);
  }
  const added: number[] = [];
  let lost = 0;
  let wrong = 0;
  for (const [turnId, sent] of yields) {
    const got = byTurn.get(turnId) ?? [];
    lost += Math.max(0, sent.length - got.length);
    wrong += Math.max(0, got.length - sent.length);
    let lastId = 0;
    sent.forEach((s, k) => {
      const r = got[k];
      if (!r) return;
      if (r.json !== s.json || r.id <= lastId) wrong += 1;
      lastId = r.id;
      added.push(r.at - s.at);
    });
  }
  return { added, lost, wrong };
}

/**
 * 50 sessions streaming at once through one server process (the stand-in and the clients each in a
 * worker thread of their own): added latency per event, lost or reordered events, RSS at idle.
 */
export async function bench(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-serve-bench-'));
  const model_ = worker<{ baseURL: string }>('./serve-stand-in.js', {
    turns: SESSIONS * TURNS,
    answer: ANSWER,
    chunkSize: 4,
    spreadMs: 400,
  });
  const { baseURL } = await model_.first;
  const model = createModelAdapter({
    provider: 'openai-compatible',
    model: 'stand-in-model',
    baseURL,
    apiKey: 'stand-in',
    retry: { maxRetries: 0 },
  });
  const store = openSessionStore({ path: join(dir, 'serve.db') });
  const runtime = new Runtime({ model, registry: createToolRegistry(), store, workspace: [dir] });
  const yields: Yields = new Map();
  recordYields(runtime, yields);
  const server = await startServer({ runtime, port: 0, version: 'bench' });
  const base = `http://127.0.0.1:${server.port}`;
  let clients: Worker | undefined;
  try {
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const res = await fetch(`${base}/api/sessions`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      ids.push(((await res.json()) as { id: string }).id);
    }
    const c = worker<{ marks: ReadMark[]; wallMs: number }>('./serve-clients.js', {
      base,
      ids,
      turns: TURNS,
    });
    clients = c.worker;
    const { marks, wallMs } = await c.first;
    const { added, lost, wrong } = compare(yields, marks);

    // Idle: the model's thread is gone; the 50 sessions each have a stream open, and nothing runs.
    model_.worker.postMessage('close');
    await new Promise((resolve) => model_.worker.once('exit', resolve));
    clients.postMessage('idle');
    await message(clients);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssMb = process.memoryUsage().rss / 2 ** 20;
    const p95 = percentile(added, 0.95);
    return [
      { name: 'serve: events streamed (50 sessions x 3 turns)', value: added.length, unit: 'events' },
      { name: 'serve: wall time for all of them', value: wallMs, unit: 'ms' },
      { name: 'serve: added latency per streamed event, p50', value: percentile(added, 0.5), unit: 'ms' },
      {
        name: 'serve: added latency per streamed event, p95',
        value: p95,
        unit: 'ms',
        target: '< 20 ms',
        ok: p95 < 20,
      },
      { name: 'serve: events lost', value: lost, unit: 'events', target: '0', ok: lost === 0 },
      {
        name: 'serve: events out of order, duplicated or changed',
        value: wrong,
        unit: 'events',
        target: '0',
        ok: wrong === 0,
      },
      {
        name: 'serve: RSS at 50 idle sessions, streams open (process, with the clients thread)',
        value: rssMb,
        unit: 'MiB',
      },
    ];
  } finally {
    clients?.postMessage('close');
    await server.close();
    if (model_.worker.threadId !== -1) await model_.worker.terminate();
    if (clients) await clients.terminate();
    rmSync(dir, { recursive: true, force: true });
  }
}
