import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * toolseam's version from its package.json, found by walking up from this file: `src/cli/` when run
 * from source, `dist/src/cli/` once built, so the number is the installed package's, never a copy.
 */
export function packageVersion(from: string = dirname(fileURLToPath(import.meta.url))): string {
  return packageFolder(from)?.version ?? 'unknown';
}

/** The folder of toolseam's own package.json (where `dist/web/` is built), found as `packageVersion` finds it. */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  return packageFolder(from)?.dir;
}

function packageFolder(from: string): { dir: string; version: string } | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const version = versionIn(join(dir, 'package.json'));
    if (version !== undefined) return { dir, version };
    if (dirname(dir) === dir) return undefined;
  }
}

/** The version in `file` when it is toolseam's own package.json; undefined otherwise. */
function versionIn(file: string): string | undefined {
  let pkg: { name?: unknown; version?: unknown } | null;
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8')) as typeof pkg;
  } catch {
    return undefined; // no file here, or one that is not JSON: not ours
  }
  return pkg?.name === 'toolseam' && typeof pkg.version === 'string' ? pkg.version : undefined;
}
