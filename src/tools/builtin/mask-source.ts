import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A place the sandbox hides from a command: a file, or a folder with all it holds. */
export interface HiddenPlace {
  readonly path: string;
  readonly folder: boolean;
}

/** What the sandbox puts over a hidden place: an empty file and an empty folder nobody may open. */
export interface MaskSource {
  readonly file: string;
  readonly folder: string;
}

let made: (MaskSource & { readonly dir: string }) | undefined;
let hooked = false;

function removeMasks(): void {
  if (made === undefined) return;
  try {
    // Opened again first: without its permissions back, a user who is not root cannot empty the folder.
    chmodSync(made.folder, 0o700);
  } catch {
    // Already gone.
  }
  rmSync(made.dir, { recursive: true, force: true });
  made = undefined;
}

/**
 * The empty file and folder (mode 000) the sandbox binds over the places it hides: a command that opens one
 * is refused ("Permission denied"), since its capabilities are dropped, and a read-only bind cannot be
 * written. Made once per process in the system's temporary folder, and removed when the process exits.
 */
export function maskSource(): MaskSource {
  if (made !== undefined && existsSync(made.file) && existsSync(made.folder)) return made;
  removeMasks();
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-masks-'));
  const file = join(dir, 'hidden-file');
  const folder = join(dir, 'hidden-folder');
  writeFileSync(file, '');
  mkdirSync(folder);
  chmodSync(file, 0);
  chmodSync(folder, 0);
  if (!hooked) process.once('exit', removeMasks);
  hooked = true;
  made = { dir, file, folder };
  return made;
}
