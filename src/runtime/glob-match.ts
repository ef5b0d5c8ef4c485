const cache = new Map<string, RegExp>();

/**
 * True when `name` matches the shell-style glob `pattern` as a whole (`*`, `?`, `[…]`; case-sensitive).
 * `*` and `?` stand for any character, line breaks included: a server may name a tool with one.
 */
export function globMatch(pattern: string, name: string): boolean {
  let re = cache.get(pattern);
  if (!re) {
    re = new RegExp(`^${globToRegExpSource(pattern)}$`, 'su');
    cache.set(pattern, re);
  }
  return re.test(name);
}

function globToRegExpSource(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i] as string;
    if (ch === '*') out += '.*';
    else if (ch === '?') out += '.';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else out += ch.replace(/[.+^${}()|\\/\]]/g, '\\$&');
  }
  return out;
}
