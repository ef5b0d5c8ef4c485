import { spawnSync } from 'node:child_process';
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

function probe(bwrap: string | undefined): SandboxState {
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
  // A real start with the same confinement a command gets, running `true`.
  const plan = { roots: [], cwd: '/', home: homedir(), hidden: [], network: false, read: [] };
  const run = spawnSync(program, [...sandboxArgs(plan), '--', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
  });
  if (run.error !== undefined) {
    return { ready: false, reason: `${program} could not be started: ${run.error.message}` };
  }
  if (run.status !== 0) {
    const said = bwrapSaid(run.stderr ?? '');
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
