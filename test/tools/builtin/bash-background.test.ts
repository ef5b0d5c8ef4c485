import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BoundedOutput } from '../../../src/tools/builtin/bounded-output.js';
import { runCommand } from '../../../src/tools/builtin/run-command.js';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
// Unconfined: the process group is all that ends what a command left (bash-sandbox.test.ts has the sandbox's).
beforeEach(async () => ({ bench, tools } = await freshBench({ shell: { sandbox: 'off' } })));
afterEach(() => bench.cleanup());

/** Whether a process runs (a zombie, dead but not yet reaped, does not count). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/\) Z /.test(stat);
}

/** Waits up to `ms` for a process to end; whether it did. */
async function endsWithin(pid: number, ms: number): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < ms; ) {
    if (!running(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !running(pid);
}

function pidIn(file: string): number {
  return Number(readFileSync(join(bench.ws, file), 'utf8').trim());
}

describe('unconfined bash ends what a command left running in the background', () => {
  it('ends a background process that still holds the output open, and says so', async () => {
    const started = Date.now();
    const result = await tools.invoke(
      'bash',
      { command: 'sleep 30 & echo $! > bg.pid; echo started' },
      tools.turn(),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    const pid = pidIn('bg.pid');
    try {
      expect(await endsWithin(pid, 3000)).toBe(true);
      expect(result).toMatchObject({ isError: false, data: { exitCode: 0, backgroundEnded: true } });
      expect(result.content).toMatch(/^started\n\[.*background.*\]$/);
    } finally {
      if (running(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('ends one whose output went elsewhere, so nothing held the command open', async () => {
    const command = 'nohup sleep 30 > /dev/null 2>&1 & echo $! > bg.pid';
    const result = await tools.invoke('bash', { command }, tools.turn());
    const pid = pidIn('bg.pid');
    try {
      expect(await endsWithin(pid, 3000)).toBe(true);
      expect(result.data).toMatchObject({ backgroundEnded: true });
    } finally {
      if (running(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('kills one that ignores SIGTERM once the grace period is over', async () => {
    // It writes its pid once it ignores SIGTERM; the command ends as soon as it has.
    const script =
      "process.on('SIGTERM', () => {}); require('fs').writeFileSync('bg.pid', String(process.pid)); setInterval(() => {}, 1000)";
    const command = `node -e "${script}" > /dev/null 2>&1 & until [ -s bg.pid ]; do sleep 0.05; done`;
    const result = await tools.invoke('bash', { command }, tools.turn());
    const pid = pidIn('bg.pid');
    try {
      expect(result.data).toMatchObject({ backgroundEnded: true });
      expect(running(pid)).toBe(true);
      expect(await endsWithin(pid, 4000)).toBe(true);
    } finally {
      if (running(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('says nothing about the background when the command waited for what it started', async () => {
    const result = await tools.invoke('bash', { command: 'sleep 0.2 & wait; echo done' }, tools.turn());
    expect(result).toEqual({
      content: 'done',
      isError: false,
      data: { exitCode: 0, timedOut: false, outputChars: 5, cut: false, backgroundEnded: false },
    });
  });

  it('says nothing about a background job that already ended (it is only waiting to be reaped)', async () => {
    // The shell goes on once the job has ended (a zombie, or reaped by bash already): on a busy machine a
    // plain `exit 0 & echo done` could finish before the job had even run, and then it was still running.
    const command =
      "exit 0 & p=$!; while kill -0 $p 2>/dev/null && ! grep -q '^State:[[:space:]]*Z' /proc/$p/status 2>/dev/null; do :; done; echo done";
    const result = await tools.invoke('bash', { command }, tools.turn());
    expect(result).toEqual({
      content: 'done',
      isError: false,
      data: { exitCode: 0, timedOut: false, outputChars: 5, cut: false, backgroundEnded: false },
    });
  });

  it('does not call a command that ended in time stopped by its timeout while its output drains', async () => {
    // The shell exits at once; a background sleep keeps the output open through a drain that outlasts
    // the timeout, so the timeout fires while output drains unless the exit switched it off.
    const command = 'sleep 30 & echo $! > bg.pid; echo finished';
    const run = { command, cwd: bench.ws, env: process.env, signal: new AbortController().signal };
    const end = await runCommand({
      ...run,
      timeoutMs: 1500,
      drainMs: 3000,
      output: new BoundedOutput(new Map()),
    });
    const pid = pidIn('bg.pid');
    try {
      expect(end).toMatchObject({ exitCode: 0, timedOut: false, stopped: false, backgroundEnded: true });
      expect(end.output.text).toBe('finished\n');
      expect(await endsWithin(pid, 3000)).toBe(true);
    } finally {
      if (running(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
