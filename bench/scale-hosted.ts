import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEvents } from '../src/testing/event-stream-reader.js';
import type { BenchFigure } from './run.js';

const CLI = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));

/** Starts the compiled CLI and resolves once its stdout matches `ready` (with the match). */
function startCli(
  args: readonly string[],
  cwd: string,
  ready: RegExp,
): Promise<[ChildProcess, RegExpExecArray]> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = ready.exec(out);
      if (match) resolve([child, match]);
    });
    child.once('exit', (code) => reject(new Error(`toolseam ${args[0]} exited (${code}): ${err}`)));
  });
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * The deployment of issue 34 as processes: two `toolseam serve` that only send turns ("work": false)
 * and `workers` × `toolseam worker`, all on the PostgreSQL store `db` and its queue. `turns` sessions
 * each send one message through one of the two serve processes at once and read the turn's stream
 * there to its end; the figure is turns per second from the first send to the last stream's end.
 */
export async function hostedTurnsPerSecond(options: {
  readonly db: string;
  readonly baseURL: string;
  readonly dir: string;
  readonly workers: number;
  readonly turns: number;
}): Promise<BenchFigure> {
  const { db, baseURL, dir, workers, turns } = options;
  const config = join(dir, `hosted-${workers}.json`);
  writeFileSync(config, JSON.stringify({ queue: { work: false, concurrency: 4 } }));
  const flags = ['--config', config, '--db', db, '--base-url', baseURL, '--model', 'demo'];
  const children: ChildProcess[] = [];
  try {
    const serves = await Promise.all(
      [0, 1].map(() =>
        startCli(['serve', '--port', '0', ...flags], dir, /toolseam serve: (http:\/\/\S+?)\/?\n/),
      ),
    );
    children.push(...serves.map(([c]) => c));
    for (let i = 0; i < workers; i++) {
      const [worker] = await startCli(['worker', ...flags], dir, /toolseam worker: working/);
      children.push(worker);
    }
    const bases = serves.map(([, match]) => match[1] as string);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: turns }, async (_, i) => {
        const base = bases[i % 2] as string;
        const { id } = await post<{ id: string }>(`${base}/api/sessions`, {});
        const turn = await post<{ events: string }>(`${base}/api/sessions/${id}/messages`, {
          text: `quick ${i}`,
        });
        const events = await readEvents(await fetch(`${base}${turn.events}`));
        if (!events.some((e) => e.event === 'turn-end')) throw new Error(`turn ${i} streamed no end`);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      name: `turns per second over HTTP, 2 serve + ${workers} worker(s) × 4`,
      value: turns / seconds,
      unit: 'turns/s',
    };
  } finally {
    for (const c of children) {
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    }
  }
}
