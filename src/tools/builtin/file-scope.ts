import { constants, type Stats } from 'node:fs';
import { access, lstat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, relative, resolve, sep } from 'node:path';
import type { ToolContext } from '../../core/tool.js';
import type { Refusal } from '../fields/define-tool.js';
import { type Checked, ready, refuse } from './checked-work.js';
import { CREDENTIAL_HINT, credentialPathPlace } from './credential-paths.js';
import { isWithin, realPathOf } from './real-path.js';

/** The name of toolseam's own configuration file, which only the person changes. */
export const CONFIG_FILE_NAME = 'toolseam.json';

/** What the file tools are confined to, as the runtime configured them. */
export interface FileScope {
  /** The workspace folders (a call's `ctx.workspace` takes precedence when it names any). */
  readonly workspace: readonly string[];
  /** The runtime's own config files: never written by a tool. */
  readonly configPaths: readonly string[];
  /** The hint a path outside every folder gets: how the person adds a folder. */
  readonly addFolderHint: string;
  /** The most folder entries one search (glob, grep) looks at. */
  readonly searchEntryLimit: number;
}

/** A path a call named, checked and resolved. */
export interface Located {
  /** Where it really leads, links resolved. */
  readonly real: string;
  /** As the call wrote it (for messages). */
  readonly shown: string;
  /** What is there now (lstat of the real path), or undefined when nothing is. */
  readonly stat: Stats | undefined;
  /** The workspace folders, really resolved, the first one first. */
  readonly roots: readonly string[];
}

/** `~` and `~/…` as the home folder they name (the file tools read paths so). */
export function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/') || path.startsWith(`~${sep}`)) return resolve(homedir(), path.slice(2));
  return path;
}

/** The workspace folders a call may use: the call's own when it names any, else the configured ones, else `.`. */
export function workspaceFolders(ctx: ToolContext, scope: FileScope): readonly string[] {
  if (ctx.workspace !== undefined && ctx.workspace.length > 0) return ctx.workspace;
  return scope.workspace.length > 0 ? scope.workspace : [process.cwd()];
}

/** The folders of `given` that exist, really resolved, in their order. */
export async function existingFolders(given: readonly string[]): Promise<string[]> {
  const roots: string[] = [];
  for (const folder of given) {
    const real = await realPathOf(folder);
    if (real !== undefined && (await lstat(real).catch(() => undefined))?.isDirectory()) roots.push(real);
  }
  return roots;
}

/** The workspace folders that exist, really resolved (first one first), or a refusal when none does. */
export async function realRoots(ctx: ToolContext, scope: FileScope): Promise<Checked<string[]>> {
  const given = workspaceFolders(ctx, scope);
  const roots = await existingFolders(given);
  if (roots.length > 0) return ready(roots);
  return refuse(
    'no_workspace',
    `None of the workspace folders exists (${given.join(', ')}), so the file tools have nowhere to work.`,
    ['The person sets the workspace folders toolseam starts with; ask them to check them.'],
  );
}

/** How a path is shown in listings: relative to the first workspace folder when inside it, else absolute. */
export function displayPath(real: string, roots: readonly string[]): string {
  const first = roots[0];
  if (first === undefined || !isWithin(first, real)) return real;
  return relative(first, real).split(sep).join('/') || '.';
}

async function resolveFolders(folders: readonly string[], base: string): Promise<string[]> {
  const out: string[] = [];
  for (const folder of folders) {
    const real = await realPathOf(resolve(base, expandHome(folder)));
    if (real !== undefined) out.push(real);
  }
  return out;
}

async function writeRefusal(
  located: Located,
  ctx: ToolContext,
  scope: FileScope,
): Promise<ReturnType<typeof refuse> | undefined> {
  const { real, shown, roots } = located;
  const base = roots[0] as string;
  const configs = await resolveFolders(scope.configPaths, base);
  if (basename(real) === CONFIG_FILE_NAME || configs.includes(real)) {
    return refuse(
      'owner_only',
      `${shown} is toolseam's own configuration. Only the person changes it, outside the chat.`,
      ['Tell the person which change you suggest; they make it themselves.'],
      { path: real },
    );
  }
  if (ctx.writable !== undefined) {
    const writable = await resolveFolders(ctx.writable, base);
    if (!writable.some((folder) => isWithin(folder, real))) {
      const listed = ctx.writable.length > 0 ? ctx.writable.join(', ') : 'none';
      return refuse(
        'not_writable',
        `${shown} is outside the folders this task may change (${listed}).`,
        ['Change files only inside those folders; the rest of the workspace belongs to other work.'],
        { path: real },
      );
    }
  }
  const offLimits = await resolveFolders(ctx.offLimits ?? [], base);
  const barred = offLimits.find((folder) => isWithin(folder, real));
  if (barred !== undefined) {
    return refuse(
      'off_limits',
      `${shown} is inside ${barred}, which this task must not change.`,
      ['Leave that folder alone; another part of the work owns it.'],
      { path: real },
    );
  }
  const locked = located.stat?.isFile() ? await lockedReason(real, located.stat) : undefined;
  if (locked !== undefined) {
    return refuse(
      'read_only',
      `${shown} ${locked.why}, so the file tools will not change it.`,
      [locked.hint],
      {
        path: real,
      },
    );
  }
  return undefined;
}

/**
 * The refusal a file with more than one name (hard links) gets: any of its other names may lie outside the
 * workspace, where the file tools may not reach, and nothing cheap tells where they are.
 */
export function hardLinkRefusal(shown: string, real: string, names: number): { readonly refusal: Refusal } {
  return refuse(
    'hard_link',
    `${shown} is one of ${names} names of the same file (hard links), and the others may lie outside the workspace folders, so the file tools neither read nor change it.`,
    [
      'If the person wants it used, they put a copy of its own into the workspace (cp makes one), or tell you what it says.',
    ],
    { path: real, names },
  );
}

const PERSON_UNLOCKS =
  'Tell the person what you would change; they can make the file writable first if it should change.';

/**
 * Why this process may not write the file in place, or undefined when it may: a file nobody may write
 * (made so to keep it as it is, which root too respects here), or the system's refusal, in its own terms.
 */
async function lockedReason(
  real: string,
  found: Stats,
): Promise<{ readonly why: string; readonly hint: string } | undefined> {
  const mode = (found.mode & 0o7777).toString(8).padStart(4, '0');
  if ((found.mode & 0o222) === 0) return { why: `is read-only (permissions ${mode})`, hint: PERSON_UNLOCKS };
  const code = await access(real, constants.W_OK).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code ?? 'EACCES',
  );
  if (code === undefined) return undefined;
  if (code === 'EROFS') {
    return {
      why: 'is on a file system mounted read-only',
      hint: 'Tell the person what you would change; only mounting that file system writable lets it change.',
    };
  }
  if (code === 'EPERM') {
    return {
      why: 'is locked against changes (the system refuses even its owner, as for a file marked immutable)',
      hint: 'Tell the person what you would change; the lock (e.g. chattr +i) must be lifted first.',
    };
  }
  return {
    why: `cannot be written by the user toolseam runs as (permissions ${mode})`,
    hint: PERSON_UNLOCKS,
  };
}

/**
 * Resolves a path a call named and checks it stays inside the workspace folders: `..`, absolute paths and
 * symbolic links (also those a not-yet-existing file would be created through) cannot lead out, and places
 * where credentials are kept (`.env`, SSH keys, cloud logins…) are refused whatever the purpose. A file with
 * more than one name (hard links) is refused for a read, as one of its names may lie outside the workspace
 * (`readTextFile` checks again as it opens the file); a write replaces the workspace's name alone. For a write,
 * also the leaf's writable and off-limits folders, the runtime's own config files and files that may not be
 * written (read-only ones, or the system refuses this user).
 */
export async function locate(
  path: string,
  ctx: ToolContext,
  scope: FileScope,
  purpose: 'read' | 'write',
): Promise<Checked<Located>> {
  if (path.includes('\0')) return refuse('bad_path', 'The path contains a NUL character; no file has one.');
  const rooted = await realRoots(ctx, scope);
  if ('refusal' in rooted) return rooted;
  const roots = rooted.ready;
  const given = workspaceFolders(ctx, scope).map((folder) => resolve(folder));
  const lexical = resolve(roots[0] as string, expandHome(path));
  let real: string | undefined;
  try {
    real = await realPathOf(lexical);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return refuse('unresolvable_path', `${path} could not be resolved: ${reason}`);
  }
  if (real === undefined) {
    return refuse('link_loop', `${path} leads into a loop of symbolic links, so it names no file.`);
  }
  if (!roots.some((root) => isWithin(root, real))) {
    const seemedInside = [...roots, ...given].some((root) => isWithin(root, lexical));
    if (seemedInside) {
      return refuse(
        'link_escape',
        `${path} leads outside the workspace folders through a symbolic link (it resolves to ${real}).`,
        ['The file tools follow links only to places inside the workspace folders.'],
        { path: real },
      );
    }
    return refuse(
      'outside_workspace',
      `${path} is outside every folder the file tools may use (${roots.join(', ')}).`,
      [scope.addFolderHint],
      { path: lexical },
    );
  }
  const place = credentialPathPlace(real, roots);
  if (place !== undefined) {
    const message =
      place.at === real
        ? `${path} is ${place.what}, where credentials are kept; the file tools never read or change those.`
        : `${path} is inside ${displayPath(place.at, roots)} (${place.what}), where credentials are kept; the file tools never read or change what is there.`;
    return refuse('credential_path', message, [CREDENTIAL_HINT], { path: real, what: place.what });
  }
  const located: Located = { real, shown: path, stat: await lstat(real).catch(() => undefined), roots };
  // A write replaces only the workspace's name (see writeFileAtomic); what reads the file is refused.
  if (purpose === 'read' && located.stat?.isFile() && located.stat.nlink > 1) {
    return hardLinkRefusal(path, real, located.stat.nlink);
  }
  if (purpose === 'write') {
    const refused = await writeRefusal(located, ctx, scope);
    if (refused !== undefined) return refused;
  }
  return ready(located);
}
