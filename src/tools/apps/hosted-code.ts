import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders of the apps this process has loaded (as given and as resolved), each with its app's name. */
const folders = new Map<string, string>();

function withSep(folder: string): string {
  return folder.endsWith(sep) ? folder : `${folder}${sep}`;
}

/** Records that code in `folder` is an installed app's, hosted in this process. */
export function noteHostedApp(folder: string, app: string): void {
  folders.set(withSep(folder), app);
  try {
    // ESM stack frames name the file as resolved, through any symlink
    folders.set(withSep(realpathSync(folder)), app);
  } catch {
    // a folder that cannot be resolved is known by the path it was given
  }
}

/**
 * The installed app whose folder holds `location` (a path or a `file:` URL, as a stack frame names it);
 * undefined for code that is not an app's (toolseam's own, or its dependencies').
 */
export function hostedAppAt(location: string): { readonly app: string; readonly folder: string } | undefined {
  let file = location;
  if (file.startsWith('file:')) {
    try {
      file = fileURLToPath(file);
    } catch {
      return undefined;
    }
  }
  for (const [folder, app] of folders) if (file.startsWith(folder)) return { app, folder };
  return undefined;
}
