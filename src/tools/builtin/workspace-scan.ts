import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { credentialEntryPlace } from './credential-paths.js';
import { CONFIG_FILE_NAME } from './file-scope.js';
import { isWithin } from './real-path.js';
import type { HiddenPlace } from './sandbox-files.js';

/** The most folders the scan looks through before each command. */
export const MAX_SCANNED_FOLDERS = 50_000;

/**
 * Folders the scan does not look into: installed packages, public whatever they hold (a package's test
 * keys), which a command must be able to remove and install again (`npm ci` empties node_modules first).
 */
const PACKAGE_FOLDERS: ReadonlySet<string> = new Set(['node_modules']);

/** A folder's listing is reused only when the folder had not changed for this long when it was read. */
const SETTLED_MS = 1000;

/** What the scan keeps of one folder, and the state of the folder it was read in. */
interface Listing {
  readonly ino: number;
  readonly mtimeMs: number;
  readonly settled: boolean;
  /** Credential files and folders, and toolseam.json files: hidden from commands. */
  readonly hidden: readonly HiddenPlace[];
  /** Every entry named toolseam.json, whatever it is. */
  readonly configs: readonly string[];
  /** The folders below, to scan in turn (not links, not hidden ones). */
  readonly folders: readonly string[];
}

/** What the workspace holds that commands must not see or change. */
export interface WorkspaceScan {
  readonly hidden: readonly HiddenPlace[];
  /** Every path named toolseam.json in the workspace folders. */
  readonly configs: ReadonlySet<string>;
}

/** The scan gave up: the workspace folders hold more folders than it looks through. */
export interface TooManyFolders {
  readonly tooMany: number;
}

function hiddenEntry(path: string, entry: Dirent, roots: readonly string[]): HiddenPlace | undefined {
  if (!entry.isFile() && !entry.isDirectory()) return undefined;
  if (entry.name === CONFIG_FILE_NAME || credentialEntryPlace(path, roots) !== undefined) {
    return { path, folder: entry.isDirectory() };
  }
  return undefined;
}

/**
 * Finds, in the workspace folders, the places a command must not read or change: the files and folders the
 * file tools treat as credentials (`.env…`, keys, `*.pem`, `.ssh`…) and every toolseam.json. Each folder's
 * listing is kept with the folder's inode and modification time (which change when an entry is added,
 * removed or renamed), so a later scan reads again only the folders that changed; a scan costs one lstat
 * per folder. Links are not followed: what one points at inside the workspace is judged where it lies.
 * Installed packages (node_modules) are not looked into.
 */
export class WorkspaceScanner {
  private listings = new Map<string, Listing>();
  private rootsKey = '';

  /** Scans the workspace folders (really resolved) as they are now, giving up past `limit` folders. */
  scan(roots: readonly string[], limit = MAX_SCANNED_FOLDERS): WorkspaceScan | TooManyFolders {
    const key = roots.join('\0');
    if (key !== this.rootsKey) {
      this.listings.clear();
      this.rootsKey = key;
    }
    const hidden: HiddenPlace[] = [];
    const configs = new Set<string>();
    const seen = new Map<string, Listing>();
    // A folder inside another workspace folder is scanned as part of that one.
    const tops = roots.filter((root) => !roots.some((other) => other !== root && isWithin(other, root)));
    const folders = [...tops];
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      if (seen.size >= limit) return { tooMany: limit };
      const listing = this.listingOf(folder, roots);
      if (listing === undefined) continue;
      seen.set(folder, listing);
      hidden.push(...listing.hidden);
      for (const name of listing.configs) configs.add(join(folder, name));
      for (const name of listing.folders) folders.push(join(folder, name));
    }
    // Folders gone since, or now below a hidden one, are forgotten.
    this.listings = seen;
    return { hidden, configs };
  }

  private listingOf(folder: string, roots: readonly string[]): Listing | undefined {
    let ino: number;
    let mtimeMs: number;
    try {
      ({ ino, mtimeMs } = lstatSync(folder));
    } catch {
      return undefined;
    }
    const kept = this.listings.get(folder);
    if (kept?.settled && kept.ino === ino && kept.mtimeMs === mtimeMs) return kept;
    const readAt = Date.now();
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      // What toolseam's user cannot list, a command cannot either.
      return undefined;
    }
    const hidden: HiddenPlace[] = [];
    const configs: string[] = [];
    const folders: string[] = [];
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.name === CONFIG_FILE_NAME) configs.push(entry.name);
      const place = hiddenEntry(path, entry, roots);
      if (place !== undefined) hidden.push(place);
      else if (entry.isDirectory() && !PACKAGE_FOLDERS.has(entry.name)) folders.push(entry.name);
    }
    // A change within the file system's clock tick after the read might leave the time as it was.
    const settled = readAt - mtimeMs > SETTLED_MS;
    return { ino, mtimeMs, settled, hidden, configs, folders };
  }
}
