import { dirname, isAbsolute, resolve } from 'node:path';
import { displayPath, existingFolders, expandHome } from './file-scope.js';
import { realPathOf } from './real-path.js';

/** The folder a file tool's path leads into, as the file tools resolve it. */
export interface WriteFolder {
  /** Where it really is, links resolved. */
  readonly real: string;
  /** As a person reads it: relative to the first workspace folder (ending in `/`), else absolute. */
  readonly shown: string;
}

/**
 * The folder that `path` really lies in, read as the file tools read it (relative to the first
 * workspace folder that exists, `~` for home, links resolved); undefined when it cannot be resolved.
 */
export async function writeFolder(
  path: string,
  workspace: readonly string[],
): Promise<WriteFolder | undefined> {
  if (path.includes('\0') || path.trim() === '') return undefined;
  // A folder the system will not let us resolve (no permission to search it) names no folder either.
  const roots = await existingFolders(workspace.length > 0 ? workspace : [process.cwd()]).catch(
    (): string[] => [],
  );
  const first = roots[0];
  if (first === undefined) return undefined;
  const real = await realPathOf(resolve(first, expandHome(path))).catch(() => undefined);
  if (real === undefined) return undefined;
  const folder = dirname(real);
  const shown = displayPath(folder, roots);
  return { real: folder, shown: shown === '.' ? './' : isAbsolute(shown) ? shown : `${shown}/` };
}
