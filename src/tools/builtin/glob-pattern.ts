const GLOB_CHARS = /[*?[{]/;

function escaped(ch: string): string {
  return ch.replace(/[.+^$()|\\/\]}]/g, '\\$&');
}

function classAt(
  pattern: string,
  start: number,
): { readonly source: string; readonly end: number } | undefined {
  const end = pattern.indexOf(']', start + 2);
  if (end === -1) return undefined;
  let body = pattern.slice(start + 1, end);
  const negated = body.startsWith('!') || body.startsWith('^');
  if (negated) body = body.slice(1);
  return { source: `[${negated ? '^/' : ''}${body.replace(/[\\[]/g, '\\$&')}]`, end };
}

/**
 * The regular expression a glob stands for, matched against a whole `/`-separated path: `*` and `?` stay
 * within one path part, `**` spans parts (`**\/` also matches none), `[abc]`/`[!abc]` and `{a,b}` as in a
 * shell. Throws SyntaxError when a `{` is never closed.
 */
export function globRegExp(pattern: string, ignoreCase: boolean): RegExp {
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        out += '(?:[^/]*/)*';
      } else out += '.*';
    } else if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '[') {
      const found = classAt(pattern, i);
      if (found === undefined) out += '\\[';
      else {
        out += found.source;
        i = found.end;
      }
    } else if (ch === '{') {
      depth++;
      out += '(?:';
    } else if (ch === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (ch === ',' && depth > 0) out += '|';
    else out += escaped(ch);
  }
  if (depth > 0) throw new SyntaxError(`the glob ${pattern} opens a { it never closes`);
  return new RegExp(`^${out}$`, ignoreCase ? 'i' : '');
}

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
