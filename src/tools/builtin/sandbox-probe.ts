import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { bwrapSaid } from './run-command.js';
import { sandboxArgs } from './sandbox-plan.js';

/** Whether commands can run in the sandbox here: the bubblewrap program that confines them, or why not. */
export type SandboxState =
  | { readonly ready: true; readonly bwrap: string }
  | { readonly ready: false; readonly reason: string };

/** Where bubblewrap is looked for first: the system's own places, which a command cannot write. */
const SYSTEM_BWRAP = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];

/** How long the probe may take before the sandbox counts as broken. */
const PROBE_TIMEOUT_MS = 10_000;

const probed = new Map<string, SandboxState>();
const probing = new Map<string, Promise<SandboxState>>();

function isProgram(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The bubblewrap program: the system's, else the first on PATH (an absolute folder of it). */
function findBwrap(): string | undefined {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((folder) => isAbsolute(folder))
    .map((folder) => join(folder, 'bwrap'));
  return [...SYSTEM_BWRAP, ...onPath].find(isProgram);
}

const INSTALL_HINT =
  'install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)';

/** What a sandbox start is tried with, or the state when none can be tried. */
type ProbePlan = { readonly program: string; readonly args: string[] } | SandboxState;

function plan(bwrap: string | undefined): ProbePlan {
  if (process.platform !== 'linux') {
    return {
      ready: false,
      reason: `toolseam's shell sandbox is built on Linux namespaces (bubblewrap), and this system is ${process.platform}`,
    };
  }
  const program = bwrap ?? findBwrap();
  if (program === undefined)
    return { ready: false, reason: `bubblewrap (bwrap) is not installed; ${INSTALL_HINT}` };
  if (!isProgram(program)) {
    return { ready: false, reason: `the bubblewrap program ${program} does not exist or cannot be run` };
  }
  // A real start with the namespaces and mounts a command gets, running `true`. Two things wait for
  // the first command, as a start that never runs bash needs neither: clearing the leftovers of ended
  // processes, and listing /etc's private files to hide (a walk of all of /etc, 17-22 ms of a cold
  // start on a 2-core machine); their binds are read-only binds like the system folders' tried here.
  const confinement = { roots: [], cwd: '/', home: homedir(), hidden: [], network: false, read: [] };
  const args = sandboxArgs(confinement, { sweep: false, systemMasks: false });
  return { program, args: [...args, '--', 'true'] };
}

/** How the start went: what kept it from starting, else how it ended and what it said. */
interface ProbeRun {
  readonly error?: Error;
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

function verdict(program: string, run: ProbeRun): SandboxState {
  if (run.error !== undefined) {
    return { ready: false, reason: `${program} could not be started: ${run.error.message}` };
  }
  if (run.status !== 0) {
    const said = bwrapSaid(run.stderr);
    const why = said === '' ? `it exited with ${run.status ?? run.signal}` : `it said "${said}"`;
    return {
      ready: false,
      reason:
        `${program} could not start a sandbox (${why}); the kernel or the container may not allow ` +
        'user namespaces',
    };
  }
  return { ready: true, bwrap: program };
}

function probe(bwrap: string | undefined): SandboxState {
  const planned = plan(bwrap);
  if ('ready' in planned) return planned;
  const run = spawnSync(planned.program, planned.args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
  });
  return verdict(planned.program, { ...run, stderr: run.stderr ?? '' });
}

/** The probe with bubblewrap running beside the caller: the process goes on with other work meanwhile. */
async function probeBeside(bwrap: string | undefined): Promise<SandboxState> {
  const planned = plan(bwrap);
  if ('ready' in planned) return planned;
  const { program, args } = planned;
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const stderr: Buffer[] = [];
    let timedOut: Error | undefined;
    let settled = false;
    const settle = (run: ProbeRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(verdict(program, run));
    };
    const timer = setTimeout(() => {
      timedOut = Object.assign(new Error(`spawn ${program} ETIMEDOUT`), { code: 'ETIMEDOUT' });
      child.kill();
    }, PROBE_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A program that cannot be started says so here, and may never close.
    child.once('error', (error) => settle({ error, status: null, signal: null, stderr: '' }));
    child.once('close', (status, signal) => {
      const said = Buffer.concat(stderr).toString('utf8');
      settle({ ...(timedOut ? { error: timedOut } : {}), status, signal, stderr: said });
    });
  });
}

/**
 * Whether the shell sandbox works here, found by starting it once (about 15 ms) and kept for the rest of
 * the process, per bubblewrap program. `bwrap` names the program; by default the system's.
 */
export function shellSandbox(bwrap?: string): SandboxState {
  const key = bwrap ?? '';
  let state = probed.get(key);
  if (state === undefined) {
    state = probe(bwrap);
    probed.set(key, state);
  }
  return state;
}

/**
 * `shellSandbox`, with bubblewrap's start awaited rather than waited for: a process can start the probe
 * early and do other work while it runs. The state is kept as `shellSandbox` keeps it.
 */
export function shellSandboxSoon(bwrap?: string): Promise<SandboxState> {
  const key = bwrap ?? '';
  const known = probed.get(key);
  if (known !== undefined) return Promise.resolve(known);
  let pending = probing.get(key);
  if (pending === undefined) {
    pending = probeBeside(bwrap).then(
      (state) => {
        probing.delete(key);
        if (!probed.has(key)) probed.set(key, state);
        return probed.get(key) as SandboxState;
      },
      (error: unknown) => {
        probing.delete(key);
        throw error;
      },
    );
    probing.set(key, pending);
  }
  return pending;
}
