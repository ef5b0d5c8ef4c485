import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { TSX_LOADER } from '../support/tsx-loader.js';

const source = join(import.meta.dirname, '..', '..', 'src', 'cli', 'bin.ts');

/**
 * Node's arguments to run the CLI with `args`: the CLI the full tier compiled once (test/support/build-cli.ts),
 * else the sources through tsx.
 */
export function toolseamNodeArgs(args: readonly string[]): string[] {
  const built = inject('toolseamBin');
  return built ? [built, ...args] : ['--import', TSX_LOADER, source, ...args];
}

/** No provider key from the person running the tests reaches a child unless a test sets one. */
export const NO_KEYS = {
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  OPENROUTER_API_KEY: '',
  GEMINI_API_KEY: '',
  MISTRAL_API_KEY: '',
  OPENAI_BASE_URL: '',
};

/**
 * Starts the CLI in `cwd` as a child a test can type into (`input`) or kill; `done`
 * resolves with its exit code and output.
 */
export function spawnToolseam(
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
  input = false,
) {
  const proc = spawn(process.execPath, toolseamNodeArgs(args), {
    cwd,
    env: { ...process.env, ...NO_KEYS, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (!input) proc.stdin.end();
  return { proc, ...outputOf(proc) };
}

/** `spawnToolseam` with a stdin to type into and its stderr discarded, as `2>/dev/null` does. */
export function spawnToolseamWithoutStderr(args: readonly string[], cwd: string) {
  const proc = spawn(process.execPath, toolseamNodeArgs(args), {
    cwd,
    env: { ...process.env, ...NO_KEYS },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  return { proc, ...outputOf(proc) };
}

/** What a child writes, as it comes, and its exit code with all of it once it ends. */
function outputOf(proc: ChildProcess) {
  let stdout = '';
  let stderr = '';
  proc.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  proc.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    proc.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { done, stdout: () => stdout, stderr: () => stderr };
}

/** Polls `check` until it holds; fails naming `what` after 60 s (a loaded machine starts processes slowly). */
export async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
