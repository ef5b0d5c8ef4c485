import { isAbsolute, join, normalize, relative, sep } from 'node:path';

/** What declared paths are read against: the folder relative paths start from, and the one `~` stands for. */
export interface PathBase {
  readonly base: string;
  readonly home?: string;
}

/** A declared path as an absolute, normalized path. */
export function resolvedPath(path: string, where: PathBase): string {
  let p = path;
  if (where.home !== undefined && (p === '~' || p.startsWith('~/'))) p = where.home + p.slice(1);
  const full = isAbsolute(p) ? normalize(p) : join(where.base, p);
  return full.length > 1 && full.endsWith(sep) ? full.slice(0, -1) : full;
}

/** True when `inner` is `outer` or lies inside it. */
export function within(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * For each leaf (given by the paths it writes, in batch order), the earlier leaves that write the
 * same path or one inside or around it: it must not run while any of them does.
 */
export function writersBefore(writes: readonly (readonly string[])[], where: PathBase): number[][] {
  const real = writes.map((paths) => paths.map((p) => resolvedPath(p, where)));
  return real.map((mine, i) =>
    real
      .slice(0, i)
      .flatMap((theirs, j) =>
        mine.some((a) => theirs.some((b) => within(a, b) || within(b, a))) ? [j] : [],
      ),
  );
}
