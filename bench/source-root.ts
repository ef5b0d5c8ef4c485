import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The source tree a bench reads its data from: the folder holding `marker` (a path inside it), one or
 * two levels above the benches, as they run from `bench/` or compiled to `dist/bench/`; undefined when
 * neither holds it.
 */
export function sourceRoot(marker: string): string | undefined {
  return [resolve(here, '..'), resolve(here, '..', '..')].find((r) => existsSync(join(r, marker)));
}
