const GLOB_CHARS = /[*?[{]/;

/** Splits a glob into its leading parts without wildcards (a folder to start from) and the rest. */
export function splitGlob(pattern: string): { readonly base: string; readonly rest: string } {
  const parts = pattern.split('/');
  const literal: string[] = [];
  while (parts.length > 1 && !GLOB_CHARS.test(parts[0] as string)) literal.push(parts.shift() as string);
  if (parts.length === 1 && !GLOB_CHARS.test(parts[0] as string)) {
    return { base: [...literal, parts[0]].join('/') || '/', rest: '' };
  }
  const base = literal.length === 1 && literal[0] === '' ? '/' : literal.join('/');
  return { base, rest: parts.join('/') };
}
