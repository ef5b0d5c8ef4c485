import { type ChildProcess, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { forgetGroup, groupRuns, watchGroup } from '../process-groups.js';
import type { BoundedOutput, BoundedText } from './bounded-output.js';
import { sandboxFiles } from './sandbox-files.js';

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
  /** Runs the command inside this sandbox; without it, the command runs unconfined. */
  readonly sandbox?: SandboxLaunch;
}

/** A sandbox to run a command in: the bubblewrap program and its arguments (see `sandboxArgs`). */
export interface SandboxLaunch {
  readonly bwrap: string;
  readonly args: readonly string[];
}

/** Where the sandbox shows the script bash reads first (see `sandboxFiles`). */
const BASH_ENV_PATH = '/run/toolseam/bash-env.sh';

function launch(run: CommandRun): ChildProcess {
  if (run.sandbox === undefined) {
    return spawn('bash', ['-c', run.command], {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  // fd 4 carries the script's word (fd 3 stays closed); the shell is the command's own, one process.
  const script = ['--ro-bind', sandboxFiles().bashEnv, BASH_ENV_PATH];
  return spawn(run.sandbox.bwrap, [...script, ...run.sandbox.args, '--', 'bash', '-c', run.command], {
    cwd: run.cwd,
    env: { ...run.env, BASH_ENV: BASH_ENV_PATH },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'pipe'],
  });
}

/** The first line bubblewrap wrote (why it could not set a sandbox up), without its `bwrap: ` prefix. */
export function bwrapSaid(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.replace(/^bwrap:\s*/, '').trim();
}

/** How long a process that ignored SIGTERM gets before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** How long output is still read after the shell exits (a background child may hold the pipes open). */
const DRAIN_MS = 500;

/**
 * Runs a command with bash in its own process group, stdout and stderr interleaved into `output`, with no
 * stdin. Past its timeout, or when the turn is stopped, the whole group is ended (SIGTERM, then SIGKILL);
 * so is what the command left running in the background when it ends by itself, since no later call could
 * see or stop it. A group still running when toolseam exits, or is ended by a signal it does not handle,
 * is killed with it. Unconfined, a process that leaves the group (through `setsid`) is out of reach; in
 * the sandbox, every process the command started is in its pid namespace and ends with it, however it
 * left the group.
 */
export function runCommand(run: CommandRun): Promise<CommandEnd> {
  return new Promise((resolve) => {
    const child = launch(run);
    const sandboxed = run.sandbox !== undefined;
    // What the script bash reads first said: `started` once it runs, `left` when processes were left behind.
    let said = '';
    child.stdio[4]?.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
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
      const ran = startError === undefined && !timedOut && !stopped && child.pid !== undefined;
      // In the sandbox, what was left already ended with its pid namespace; unconfined, it is ended now.
      if (ran && sandboxed) backgroundEnded = said.includes('left');
      else if (ran && groupRuns(child.pid as number)) end('background');
      // A group being ended is forgotten once killed; one with no process left, now.
      if (!ending && child.pid !== undefined) forgetGroup(child.pid);
      for (const [stream, decoder] of decoders) {
        run.output.push(decoder.end());
        stream.destroy();
      }
      child.stdio[4]?.destroy();
      const output = run.output.finish();
      // Bubblewrap exits before the command starts when it cannot set the sandbox up.
      const failed =
        startError ??
        (!sandboxed || said.includes('started') || stopped || timedOut
          ? undefined
          : `the sandbox could not be set up (${bwrapSaid(output.text) || 'it gave no reason'})`);
      resolve({ exitCode, timedOut, stopped, startError: failed, backgroundEnded, output });
    };
    const decoders = [child.stdout, child.stderr]
      .filter((s) => s !== null)
      .map((stream) => {
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
