import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { isWithin } from './real-path.js';
import { type HiddenPlace, sandboxFiles } from './sandbox-files.js';
import { privateSystemFiles } from './system-masks.js';

/** Where a command's programs and libraries come from: shown read-only (a link as the same link). */
const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];

/** What one sandboxed command may see and do. */
export interface SandboxPlan {
  /** The workspace folders, really resolved: the only places it may change (with a private /tmp). */
  readonly roots: readonly string[];
  /** Where it starts. */
  readonly cwd: string;
  /** The person's home folder: an empty, private one takes its place. */
  readonly home: string;
  /** Places inside the workspace hidden from it (credential files, toolseam's own files). */
  readonly hidden: readonly HiddenPlace[];
  /** Whether it reaches the network. */
  readonly network: boolean;
  /** More files or folders it may read (absolute). */
  readonly read: readonly string[];
  /** When set, the only folders it may change (a subagent leaf's); the rest of the workspace is read-only. */
  readonly writable?: readonly string[];
  /** Folders it must not change, though they lie in one it may (a subagent leaf's off-limits folders). */
  readonly offLimits?: readonly string[];
}

function kindOf(path: string): 'link' | 'folder' | 'other' | undefined {
  try {
    const stat = lstatSync(path);
    return stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'folder' : 'other';
  } catch {
    return undefined;
  }
}

let systemArgs: readonly string[] | undefined;

/**
 * The Node that runs toolseam, when it lies outside the system folders (nvm, a tarball under /opt): its
 * install folder, so `node` and `npm` work in the sandbox; never the home folder or a folder above it.
 */
function nodeFolder(home: string): string | undefined {
  const known = nodeFolders.get(home);
  if (known !== undefined || nodeFolders.has(home)) return known;
  const found = findNodeFolder(home);
  nodeFolders.set(home, found);
  return found;
}

const nodeFolders = new Map<string, string | undefined>();

function findNodeFolder(home: string): string | undefined {
  let exec: string;
  try {
    exec = realpathSync(process.execPath);
  } catch {
    return undefined;
  }
  if (SYSTEM_FOLDERS.some((folder) => isWithin(folder, exec))) return undefined;
  for (const candidate of [dirname(dirname(exec)), dirname(exec), exec]) {
    if (candidate !== '/' && !isWithin(candidate, home)) return candidate;
  }
  return undefined;
}

/** The system's programs and libraries, read-only (worked out once per process). */
function systemPart(): readonly string[] {
  if (systemArgs !== undefined) return systemArgs;
  const args: string[] = [];
  for (const folder of SYSTEM_FOLDERS) {
    const kind = kindOf(folder);
    // A merged /usr makes /bin, /lib… links into it: the sandbox gets the same links.
    if (kind === 'link') args.push('--symlink', readlinkSync(folder), folder);
    else if (kind === 'folder') args.push('--ro-bind', folder, folder);
  }
  systemArgs = args;
  return args;
}

/** Where /etc/resolv.conf leads when it is a link out of /etc (systemd-resolved's stub, under /run). */
function resolverArgs(): string[] {
  let real: string;
  try {
    real = realpathSync('/etc/resolv.conf');
  } catch {
    return [];
  }
  return SYSTEM_FOLDERS.some((folder) => isWithin(folder, real)) ? [] : ['--ro-bind-try', real, real];
}

/**
 * The bubblewrap arguments (before `--` and the command) that confine one command: a new user, pid, ipc,
 * uts, cgroup and (unless `network`) network namespace, every capability dropped and no further user
 * namespace, so what is mounted cannot be undone; the system's programs and libraries and /etc read-only,
 * with the files of /etc others may not read hidden; a private /tmp and an empty home; the workspace
 * folders writable, with their credential files and toolseam's own files hidden; everything else absent.
 * Killed with toolseam, and in a session of its own (no terminal to push input into). `sweep: false`
 * leaves the sandbox folders of ended processes for a later call to clear (see `sandboxFiles`);
 * `systemMasks: false` leaves out the binds that hide /etc's private files (the probe's start).
 */
export function sandboxArgs(
  plan: SandboxPlan,
  options: { readonly sweep?: boolean; readonly systemMasks?: boolean } = {},
): string[] {
  const masked = options.systemMasks !== false;
  const hidden = masked ? [...privateSystemFiles(), ...plan.hidden] : plan.hidden;
  // Without the masks and with nothing hidden, nothing is bound from the sandbox's own files.
  const files = masked || hidden.length > 0 ? sandboxFiles(options) : undefined;
  const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--cap-drop', 'ALL'];
  if (plan.network) args.push('--share-net', ...resolverArgs());
  args.push('--die-with-parent', '--new-session', ...systemPart());
  const nodeHome = nodeFolder(plan.home);
  if (nodeHome !== undefined) args.push('--ro-bind', nodeHome, nodeHome);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--symlink', '/tmp', '/var/tmp');
  const home = plan.home;
  if (isAbsolute(home) && home !== '/' && !SYSTEM_FOLDERS.some((folder) => isWithin(folder, home))) {
    args.push('--tmpfs', home);
  }
  // Read-only places first: a workspace folder inside one stays writable.
  for (const path of plan.read) {
    if (!plan.roots.some((root) => isWithin(root, path))) args.push('--ro-bind-try', path, path);
  }
  const writable = plan.writable;
  for (const root of plan.roots) args.push(writable === undefined ? '--bind' : '--ro-bind', root, root);
  for (const folder of writable ?? []) args.push('--bind', folder, folder);
  for (const folder of plan.offLimits ?? []) args.push('--ro-bind', folder, folder);
  // Hidden last, over whatever showed them: a workspace folder may hold /etc.
  if (files !== undefined) {
    for (const place of hidden) {
      args.push('--ro-bind', place.folder ? files.hiddenFolder : files.hiddenFile, place.path);
    }
  }
  args.push('--remount-ro', '/', '--chdir', plan.cwd);
  return args;
}
