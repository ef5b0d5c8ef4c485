import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HiddenPlace } from './sandbox-files.js';

/** The system folder whose private files the sandbox hides (the others it shows hold programs and libraries). */
const SETTINGS_FOLDER = '/etc';

/** Read permission for others on a file; read and enter for others on a folder. */
const OTHERS_READ = 0o004;
const OTHERS_ENTER = 0o001;

let found: readonly HiddenPlace[] | undefined;

function isPrivate(path: string, entry: Dirent): boolean | undefined {
  // Links (most of /etc: certificates, alternatives) and devices are hidden through what they lead to,
  // if at all: their own mode is not read.
  if (!entry.isDirectory() && !entry.isFile()) return undefined;
  let mode: number;
  try {
    mode = lstatSync(path).mode;
  } catch {
    return undefined;
  }
  if (entry.isDirectory()) return (mode & OTHERS_READ) === 0 || (mode & OTHERS_ENTER) === 0;
  return (mode & OTHERS_READ) === 0;
}

/** Whether this process has listed /etc's private files yet. */
export function systemFilesListed(): boolean {
  return found !== undefined;
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
    for (const entry of entries) {
      const path = join(folder, entry.name);
      const hidden = isPrivate(path, entry);
      if (hidden === true) places.push({ path, folder: entry.isDirectory() });
      else if (hidden === false && entry.isDirectory()) folders.push(path);
    }
  }
  found = places.sort((a, b) => (a.path < b.path ? -1 : 1));
  return found;
}
