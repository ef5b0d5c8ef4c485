import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { forgetGroup, groupRuns, watchGroup } from '../process-groups.js';
import type { BoundedOutput, BoundedText } from './bounded-output.js';

/** How a command ended. */
export interface CommandEnd {
  /** The exit code, or undefined when a signal ended it or it never started. */
  readonly exitCode: number | undefined;
  readonly timedOut: boolean;
  /** The turn was stopped while it ran. */
  readonly stopped: boolean;
  /** Why it could not start (e.g. bash is missing). */
  readonly startError: string | undefined;
  /** It ended normally, but processes it started were still running, and were ended with it. */
  readonly backgroundEnded: boolean;
  readonly output: BoundedText;
}

/** What one run needs. */
export interface CommandRun {
  readonly command: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly output: BoundedOutput;
  /** How long output is still read after the shell exits; default 500 ms. */
  readonly drainMs?: number;
}

/** How long a process that ignored SIGTERM gets before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** How long output is still read after the shell exits (a background child may hold the pipes open). */
const DRAIN_MS = 500;

/**
 * Runs a command with bash in its own process group, stdout and stderr interleaved into `output`, with no
 * stdin. Past its timeout, or when the turn is stopped, the whole group is ended (SIGTERM, then SIGKILL);
 * so is what the command left running in the background when it ends by itself, since no later call could
 * see or stop it (a process that leaves the group, e.g. through `setsid`, is out of reach). A group still
 * running when toolseam exits, or is ended by a signal it does not handle, is killed with it.
 */
export function runCommand(run: CommandRun): Promise<CommandEnd> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', run.command], {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The group leads itself, so a Ctrl-C or a closed terminal that ends toolseam never reaches it.
    if (child.pid !== undefined) watchGroup(child.pid);
    let timedOut = false;
    let stopped = false;
    let exitCode: number | undefined;
    let backgroundEnded = false;
    let settled = false;
    let ending = false;
    const timers: NodeJS.Timeout[] = [];
    const killGroup = (signal: NodeJS.Signals): boolean => {
      try {
        if (child.pid !== undefined) return process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
      return false;
    };
    const end = (reason: 'timeout' | 'stop' | 'background'): void => {
      if (reason === 'timeout') timedOut = true;
      else if (reason === 'stop') stopped = true;
      else backgroundEnded = true;
      ending = true;
      killGroup('SIGTERM');
      // Not among `timers`: the shell may exit on SIGTERM while a child that ignores it lives on, and
      // finishing the run must not call off the SIGKILL that ends it.
      setTimeout(() => {
        killGroup('SIGKILL');
        if (child.pid !== undefined) forgetGroup(child.pid);
      }, KILL_GRACE_MS).unref();
    };
    const onAbort = (): void => end('stop');
    const finish = (startError?: string): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      const left = startError === undefined && !timedOut && !stopped && child.pid !== undefined;
      if (left && groupRuns(child.pid as number)) end('background');
      // A group being ended is forgotten once killed; one with no process left, now.
      if (!ending && child.pid !== undefined) forgetGroup(child.pid);
      for (const [stream, decoder] of decoders) {
        run.output.push(decoder.end());
        stream.destroy();
      }
      resolve({ exitCode, timedOut, stopped, startError, backgroundEnded, output: run.output.finish() });
    };
    const decoders = [child.stdout, child.stderr].map((stream) => {
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer) => run.output.push(decoder.write(chunk)));
      return [stream, decoder] as const;
    });
    const deadline = setTimeout(() => end('timeout'), run.timeoutMs);
    timers.push(deadline);
    if (run.signal.aborted) onAbort();
    else run.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => finish(error.message));
    child.on('exit', (code) => {
      exitCode = code ?? undefined;
      // The command has ended: a timeout or a stop while the last output drains would misreport it
      // (what it left running is ended at the finish all the same).
      clearTimeout(deadline);
      run.signal.removeEventListener('abort', onAbort);
      timers.push(setTimeout(() => finish(), run.drainMs ?? DRAIN_MS));
    });
    child.on('close', () => finish());
  });
}
