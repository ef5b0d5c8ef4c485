import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { HiddenPlace } from './sandbox-files.js';

/** The system folder whose private files the sandbox hides (the others it shows hold programs and libraries). */
const SETTINGS_FOLDER = '/etc';

/** Read permission for others on a file; read and enter for others on a folder. */
const OTHERS_READ = 0o004;
const OTHERS_ENTER = 0o001;

let found: readonly HiddenPlace[] | undefined;

/** Whether an entry of `mode` (undefined: it could not be read) is private; undefined for neither file nor folder. */
function isPrivate(mode: number | undefined, entry: Dirent): boolean | undefined {
  if (mode === undefined) return undefined;
  if (entry.isDirectory()) return (mode & OTHERS_READ) === 0 || (mode & OTHERS_ENTER) === 0;
  return entry.isFile() ? (mode & OTHERS_READ) === 0 : undefined;
}

function modeOf(path: string): number | undefined {
  try {
    return lstatSync(path).mode;
  } catch {
    return undefined;
  }
}

/** Notes the entries of `folder` (with their modes) that are private, and the folders to look into. */
function sort(
  folder: string,
  entries: readonly Dirent[],
  modes: readonly (number | undefined)[],
  places: HiddenPlace[],
  folders: string[],
): void {
  entries.forEach((entry, i) => {
    const path = join(folder, entry.name);
    const hidden = isPrivate(modes[i], entry);
    if (hidden === true) places.push({ path, folder: entry.isDirectory() });
    else if (hidden === false && entry.isDirectory()) folders.push(path);
  });
}

function keep(places: HiddenPlace[]): readonly HiddenPlace[] {
  found ??= places.sort((a, b) => (a.path < b.path ? -1 : 1));
  return found;
}

/**
 * The entries of /etc that other users may not read (/etc/shadow, /etc/gshadow, sudoers, /etc/ssl/private,
 * a database's password settings…): root reads them by privilege alone, so the sandbox hides them rather
 * than counting on permissions. Listed once per process; a folder hidden whole is not looked into.
 */
export function privateSystemFiles(): readonly HiddenPlace[] {
  if (found !== undefined) return found;
  const places: HiddenPlace[] = [];
  const folders = [SETTINGS_FOLDER];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    sort(
      folder,
      entries,
      entries.map((entry) => modeOf(join(folder, entry.name))),
      places,
      folders,
    );
  }
  return keep(places);
}

/**
 * `privateSystemFiles`, listed by the I/O threads while the caller goes on: a later `privateSystemFiles`
 * answers from what this found.
 */
export async function privateSystemFilesSoon(): Promise<readonly HiddenPlace[]> {
  if (found !== undefined) return found;
  const places: HiddenPlace[] = [];
  const folders = [SETTINGS_FOLDER];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    const modes = await Promise.all(
      entries.map((entry) =>
        lstat(join(folder, entry.name)).then(
          (s) => s.mode,
          () => undefined,
        ),
      ),
    );
    sort(folder, entries, modes, places, folders);
  }
  return keep(places);
}
