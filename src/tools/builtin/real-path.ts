import { readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const MAX_LINK_HOPS = 40;

/** Whether `inner` is `outer` or lies below it (both absolute). */
export function isWithin(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/**
 * Where a path really leads, symbolic links resolved, even when it does not exist yet: the nearest part that
 * exists is resolved and the rest appended. A dangling link is followed to where it points (writing through
 * it would create its target). Undefined when the links loop.
 */
export async function realPathOf(target: string, hops = 0): Promise<string | undefined> {
  let head = resolve(target);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(await realpath(head), ...rest);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP') return undefined;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    const link = await readlink(head).catch(() => undefined);
    if (link !== undefined) {
      if (hops >= MAX_LINK_HOPS) return undefined;
      const parent = await realPathOf(dirname(head), hops + 1);
      if (parent === undefined) return undefined;
      return realPathOf(join(resolve(parent, link), ...rest), hops + 1);
    }
    const parent = dirname(head);
    if (parent === head) return join(head, ...rest);
    rest.unshift(basename(head));
    head = parent;
  }
}
