import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { PG_URL } from '../store/pg-fixtures.js';
import type { WorkerChildOptions } from './job-worker-child.js';
import { TSX_LOADER } from './tsx-loader.js';

/** The PostgreSQL the job tests run on (the store's tests' own). */
export const TEST_PG = PG_URL;

/** Drops a test's pg-boss schema. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** A worker process started by a test. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** What it wrote on stderr (for a failure's message). */
  stderr(): string;
  /** Resolves once it exited. */
  readonly exited: Promise<number | null>;
}

const CHILD = join(import.meta.dirname, 'job-worker-child.ts');

/** Starts a worker child and waits until it works on jobs. */
export async function startWorker(options: WorkerChildOptions): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, CHILD, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) resolve();
    });
    void exited.then((code) => reject(new Error(`the worker exited (${code}) before it was ready: ${err}`)));
  });
  return { child, pid: child.pid as number, stderr: () => err, exited };
}

/** Polls `check` every 100 ms until it answers true, failing with `what` after `ms`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  what: string,
  ms = 90_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Lines of the test tools' log: `start|done <tag> <pid>` (the pid of the worker that ran it). */
export function logLines(file: string): { kind: string; tag: string; pid: number }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [kind, tag, pid] = line.split(' ') as [string, string, string];
      return { kind, tag, pid: Number(pid) };
    });
}
