import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A place the sandbox hides from a command: a file, or a folder with all it holds. */
export interface HiddenPlace {
  readonly path: string;
  readonly folder: boolean;
}

/** The files the sandbox is built with, on this machine. */
export interface SandboxFiles {
  /** Bound over a hidden file: empty, and nobody may open it. */
  readonly hiddenFile: string;
  /** Bound over a hidden folder: empty, and nobody may open it. */
  readonly hiddenFolder: string;
  /** The script bash reads first in the sandbox (see BASH_ENV_SCRIPT). */
  readonly bashEnv: string;
}

/**
 * What bash reads before a sandboxed command (through BASH_ENV, which it then unsets, so no bash the
 * command starts reads it again): it says on fd 4 that the sandbox is set up, and, when the command's
 * shell exits, whether a process the command started is still running (all of them end with the sandbox
 * then). A process found gets a moment to finish exiting (one started with `&` just before the end may
 * be on its way out). A command that replaces the shell (`exec`) or sets its own exit trap gets no such
 * word; what it left still ends with the sandbox. Pid 1 is bubblewrap's own.
 */
const BASH_ENV_SCRIPT = `unset BASH_ENV
echo started >&4
__toolseam_running() {
  local entry pid stat rest
  for entry in /proc/[0-9]*; do
    pid=\${entry#/proc/}
    if [ "$pid" != 1 ] && [ "$pid" != "$$" ] && read -r stat < "$entry/stat" 2>/dev/null; then
      rest=\${stat##*) }
      if [ "\${rest%% *}" != Z ]; then return 0; fi
    fi
  done
  return 1
}
trap 'shopt -u failglob nullglob; if __toolseam_running; then command -p sleep 0.1; if __toolseam_running; then echo left >&4; fi; fi 2>/dev/null' EXIT
`;

let made: (SandboxFiles & { readonly dir: string }) | undefined;
let hooked = false;
let swept = false;

/** The start of the folder's name; the process id after it tells whose it is. */
const PREFIX = 'toolseam-sandbox-';

function removeFolder(dir: string): void {
  try {
    // Opened again first: without its permissions back, a user who is not root cannot empty the folder.
    chmodSync(join(dir, 'hidden-folder'), 0o700);
  } catch {
    // Already gone.
  }
  rmSync(dir, { recursive: true, force: true });
}

function removeFiles(): void {
  if (made === undefined) return;
  removeFolder(made.dir);
  made = undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the folders of this user's processes that ended without removing theirs (a signal ends one so). */
function removeLeftovers(): void {
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^toolseam-sandbox-(\d+)-/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid || alive(pid)) continue;
    const dir = join(tmpdir(), name);
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (stat?.isDirectory() && stat.uid === uid) removeFolder(dir);
  }
}

/**
 * The sandbox's files: the empty file and folder (mode 000) bound over the places it hides — a command
 * that opens one is refused ("Permission denied"), since its capabilities are dropped, and a read-only
 * bind cannot be written — and the script bash reads first. Made once per process in a folder of its own
 * in the system's temporary folder (again if something removed them), removed when the process exits;
 * the folders of this user's processes that a signal ended first are removed by the first call of the
 * next process that does not pass `sweep: false` (the sandbox probe passes it: a start that never runs a
 * command leaves them to the next that does).
 */
export function sandboxFiles(options: { readonly sweep?: boolean } = {}): SandboxFiles {
  if (options.sweep !== false && !swept) {
    swept = true;
    removeLeftovers();
  }
  if (made !== undefined && [made.hiddenFile, made.hiddenFolder, made.bashEnv].every((f) => existsSync(f))) {
    return made;
  }
  removeFiles();
  const dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  const hiddenFile = join(dir, 'hidden-file');
  const hiddenFolder = join(dir, 'hidden-folder');
  const bashEnv = join(dir, 'bash-env.sh');
  writeFileSync(hiddenFile, '');
  mkdirSync(hiddenFolder);
  writeFileSync(bashEnv, BASH_ENV_SCRIPT, { mode: 0o444 });
  chmodSync(hiddenFile, 0);
  chmodSync(hiddenFolder, 0);
  if (!hooked) process.once('exit', removeFiles);
  hooked = true;
  made = { dir, hiddenFile, hiddenFolder, bashEnv };
  return made;
}
