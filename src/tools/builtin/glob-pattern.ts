import { isAbsolute } from 'node:path';

const GLOB_CHARS = /[*?[{]/;

/** Whether a glob starts at an absolute place (`/…`, `~`, `~/…`) rather than at the folder searched. */
export function isAbsolutePattern(pattern: string): boolean {
  return isAbsolute(pattern) || pattern === '~' || pattern.startsWith('~/');
}

/** Whether a path part could name another entry in another case: it has a letter with two cases. */
function hasCase(part: string): boolean {
  return part.toLowerCase() !== part.toUpperCase();
}

/**
 * Splits a glob into its leading parts without wildcards (a folder to start from) and the rest. With
 * `ignoreCase`, a part that has letters is matched rather than started from, since the folder it names may
 * be written in another case; an absolute pattern (`/…`, `~…`) keeps its leading folders as written, as
 * they say where to look, and matches only its last part in either case when it has no wildcard.
 */
export function splitGlob(
  pattern: string,
  ignoreCase = false,
): { readonly base: string; readonly rest: string } {
  const parts = pattern.split('/');
  const absolute = isAbsolutePattern(pattern);
  const fixed = (part: string, last: boolean) =>
    !GLOB_CHARS.test(part) && (!ignoreCase || !hasCase(part) || (absolute && !last));
  const literal: string[] = [];
  while (parts.length > 1 && fixed(parts[0] as string, false)) literal.push(parts.shift() as string);
  if (parts.length === 1 && fixed(parts[0] as string, true)) {
    return { base: [...literal, parts[0]].join('/') || '/', rest: '' };
  }
  const base = literal.length === 1 && literal[0] === '' ? '/' : literal.join('/');
  return { base, rest: parts.join('/') };
}

/** Whether a glob has no wildcard at all: it names one path (in either case, with ignore_case). */
export function namesOnePath(pattern: string): boolean {
  return !GLOB_CHARS.test(pattern);
}
