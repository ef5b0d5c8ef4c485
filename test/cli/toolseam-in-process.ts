import { main } from '../../src/cli/main.js';
import { NO_KEYS } from './spawn-toolseam.js';

/** What a CLI run left: its exit code and everything it wrote. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `toolseamInProcess` with no provider key from the person running the tests, as `spawnToolseam` starts a child. */
export function toolseamInProcessWithoutKeys(
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  return toolseamInProcess(args, cwd, { ...NO_KEYS, ...env });
}

type Write = typeof process.stdout.write;

let running = false;

/**
 * Runs the CLI's `main` in this process, in `cwd`, with `env` laid over the environment: what
 * `runToolseam` shows from a child (exit code, stdout, stderr), without starting Node and loading every
 * module again for each command. For what a command prints and stores; a test whose subject is the
 * process (signals, a terminal, a closed pipe, several processes) starts one. A key set to undefined
 * is removed for the run. A bug `main` throws ends as Node ends a process on one: exit 1, the stack on
 * stderr. Runs are one at a time, since the process's cwd, environment and output are shared (and need
 * Vitest's forks pool: a worker thread cannot change its cwd).
 */
export async function toolseamInProcess(
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  if (running) throw new Error('toolseamInProcess: a run is already going; await it before the next');
  running = true;
  const restore = takeOver(cwd, env);
  let code: number;
  try {
    code = await main([...args]);
  } catch (error) {
    restore.captured.stderr += `${error instanceof Error ? error.stack : String(error)}\n`;
    code = 1;
  } finally {
    restore.undo();
    running = false;
  }
  if (restore.exitedWith !== undefined) {
    throw new Error(`the CLI called process.exit(${restore.exitedWith}): test that in a child process`);
  }
  return { code, stdout: restore.captured.stdout, stderr: restore.captured.stderr };
}

/** Points cwd, environment, output and exit at this run; `undo` gives them back. */
function takeOver(cwd: string, env: Record<string, string | undefined>) {
  const captured = { stdout: '', stderr: '' };
  const state: { exitedWith: number | string | null | undefined } = { exitedWith: undefined };
  const before = { cwd: process.cwd(), exit: process.exit };
  const previous = Object.entries(env).map(([key, value]) => {
    const was = process.env[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
    return [key, was] as const;
  });
  process.chdir(cwd);
  const writes = [
    captureWrites(process.stdout, (text) => {
      captured.stdout += text;
    }),
    captureWrites(process.stderr, (text) => {
      captured.stderr += text;
    }),
  ];
  // A child's stdin is a pipe, not the terminal the tests may run on.
  const stdinTty = Object.getOwnPropertyDescriptor(process.stdin, 'isTTY');
  Object.defineProperty(process.stdin, 'isTTY', { value: undefined, configurable: true, writable: true });
  process.exit = ((exitCode?: number | string | null) => {
    state.exitedWith = exitCode ?? 0;
    throw new Error(`process.exit(${exitCode ?? ''}) in an in-process CLI run`);
  }) as typeof process.exit;
  return {
    captured,
    get exitedWith() {
      return state.exitedWith;
    },
    undo(): void {
      process.exit = before.exit;
      if (stdinTty) Object.defineProperty(process.stdin, 'isTTY', stdinTty);
      else delete (process.stdin as { isTTY?: boolean }).isTTY;
      for (const undo of writes) undo();
      process.chdir(before.cwd);
      for (const [key, was] of previous) {
        if (was === undefined) delete process.env[key];
        else process.env[key] = was;
      }
    },
  };
}

/** Sends what `stream` is given to `into` instead of the stream, as a pipe to the test would; returns the undo. */
function captureWrites(stream: NodeJS.WriteStream, into: (text: string) => void): () => void {
  const own = Object.getOwnPropertyDescriptor(stream, 'write');
  const write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    into(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => done());
    return true;
  }) as Write;
  stream.write = write;
  return () => {
    if (own) Object.defineProperty(stream, 'write', own);
    else delete (stream as { write?: Write }).write;
  };
}
