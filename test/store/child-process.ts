import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { onTestFinished } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** A child process running one of `children/*.ts` under tsx, read line by line. */
export interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  /** The next line the child prints (rejects if it exits first). */
  nextLine(): Promise<string>;
  /** Resolves with the exit code or signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `children/<name>.ts` with `args`; it is killed when the test ends if still running. */
export function startChild(name: string, args: readonly string[]): Child {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(import.meta.dirname, 'children', `${name}.ts`), ...args],
    {
      cwd: root,
      stdio: 'pipe',
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    process: child,
    exited,
    async nextLine() {
      const next = await lines.next();
      if (next.done) throw new Error(`child ${name} ended without printing a line; stderr:\n${stderr}`);
      return next.value;
    },
  };
}
