import { spawnToolseam, until } from '../cli/spawn-toolseam.js';
import { PG_URL } from '../store/pg-fixtures.js';

/** A `toolseam` process a test started, with what it printed so far. */
export type ToolseamProcess = ReturnType<typeof spawnToolseam>;

/**
 * Starts `toolseam serve` on an ephemeral loopback port (`args` after `serve --port 0`) and waits until
 * it listens; `base` is its `http://127.0.0.1:PORT`.
 */
export async function startServeProcess(
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<{ child: ToolseamProcess; base: string }> {
  const child = spawnToolseam(['serve', '--port', '0', ...args], cwd, env);
  await until(
    'the server to listen',
    () => /toolseam serve: http:\/\/\S+/.test(child.stdout()) || child.proc.exitCode !== null,
  );
  const base = /toolseam serve: (http:\/\/\S+?)\/?\n/.exec(child.stdout())?.[1];
  if (base === undefined) {
    child.proc.kill('SIGKILL');
    throw new Error(
      `serve did not start (is PostgreSQL running at ${PG_URL}? start it, or set TOOLSEAM_TEST_PG): ${child.stderr()}`,
    );
  }
  return { child, base };
}

/** Starts `toolseam worker` (`args` after `worker`) and waits until it works on the queue. */
export async function startWorkerProcess(args: readonly string[], cwd: string): Promise<ToolseamProcess> {
  const child = spawnToolseam(['worker', ...args], cwd);
  await until(
    'the worker to start',
    () => child.stdout().includes('toolseam worker: working') || child.proc.exitCode !== null,
  );
  if (child.proc.exitCode !== null) throw new Error(`the worker did not start: ${child.stderr()}`);
  return child;
}
