import { lstatSync, realpathSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { BoundedOutput } from './bounded-output.js';
import { isWithin } from './real-path.js';
import { type CommandEnd, runCommand } from './run-command.js';
import type { HiddenPlace } from './sandbox-files.js';
import { sandboxArgs } from './sandbox-plan.js';
import type { TooManyFolders, WorkspaceScanner } from './workspace-scan.js';

/** How the shell's commands run. */
export interface ShellConfinement {
  /** The bubblewrap program of the sandbox; undefined when commands run unconfined (the config said so). */
  readonly bwrap: string | undefined;
  /** Whether a sandboxed command reaches the network. */
  readonly network: boolean;
  /** More places a sandboxed command may read (absolute). */
  readonly read: readonly string[];
  /** More environment variables a command gets (sandboxed or not). */
  readonly env: readonly string[];
  /** toolseam's own files (its config files, the session database): hidden from sandboxed commands. */
  readonly ownFiles: readonly string[];
}

/** One command to run, cleared by the shell's checks. */
export interface ShellRun {
  readonly command: string;
  readonly cwd: string;
  readonly roots: readonly string[];
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly output: BoundedOutput;
  /** The folders a subagent leaf may change (relative to the first workspace folder, or absolute). */
  readonly writable?: readonly string[] | undefined;
  /** The folders a subagent leaf must not change. */
  readonly offLimits?: readonly string[] | undefined;
}

/** How a command went, and the toolseam.json files it made that were removed after it. */
export interface ShellEnd {
  readonly end: CommandEnd;
  readonly removedConfigs: readonly string[];
}

/** Where a file really is (links resolved), or the path as given when it does not exist. */
function realOrGiven(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

/** The existing folders among `folders` (resolved from `base`, as the file tools resolve them) inside a root. */
function foldersIn(roots: readonly string[], base: string, folders: readonly string[]): string[] {
  return folders
    .map((folder) => realOrGiven(resolve(base, folder.replace(/^~(?=\/|$)/, homedir()))))
    .filter((folder) => roots.some((root) => isWithin(root, folder)))
    .filter((folder) => lstatSync(folder, { throwIfNoEntry: false })?.isDirectory() === true);
}

/** toolseam's own files that exist inside the workspace folders, with a database's companion files. */
function ownFilesIn(roots: readonly string[], files: readonly string[]): HiddenPlace[] {
  const found: HiddenPlace[] = [];
  const real = files.map(realOrGiven);
  for (const file of real.flatMap((f) => [f, `${f}-wal`, `${f}-shm`, `${f}-journal`])) {
    if (!roots.some((root) => isWithin(root, file))) continue;
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (stat?.isFile()) found.push({ path: file, folder: false });
  }
  return found;
}

/**
 * Runs a cleared command: unconfined when the sandbox is off; else in the sandbox, with the credential
 * files and toolseam's own files the workspace holds now hidden, and — since a file that does not exist
 * yet cannot be bound over — every toolseam.json the command made removed once it has ended (all its
 * processes end with it, so none can write one later). Refuses (`tooMany`) a workspace too large to scan.
 */
export async function runShell(
  run: ShellRun,
  confinement: ShellConfinement,
  scanner: WorkspaceScanner,
): Promise<ShellEnd | TooManyFolders> {
  const { bwrap } = confinement;
  if (bwrap === undefined) return { end: await runCommand(run), removedConfigs: [] };
  const before = scanner.scan(run.roots);
  if ('tooMany' in before) return before;
  const hidden = [...before.hidden, ...ownFilesIn(run.roots, confinement.ownFiles)];
  const plan = {
    roots: run.roots,
    cwd: run.cwd,
    home: homedir(),
    hidden,
    network: confinement.network,
    read: confinement.read,
    // A leaf's bounds, which the file tools keep by their checks, the kernel keeps here.
    ...(run.writable === undefined ? {} : { writable: foldersIn(run.roots, run.cwd, run.writable) }),
    ...(run.offLimits === undefined ? {} : { offLimits: foldersIn(run.roots, run.cwd, run.offLimits) }),
  };
  const end = await runCommand({ ...run, sandbox: { bwrap, args: sandboxArgs(plan) } });
  // However many folders the command made, each is looked through for a toolseam.json.
  const after = scanner.scan(run.roots, Number.POSITIVE_INFINITY);
  const made =
    'tooMany' in after ? [] : [...after.configs].filter((path) => !before.configs.has(path)).sort();
  for (const path of made) rmSync(path, { recursive: true, force: true });
  return { end, removedConfigs: made };
}
