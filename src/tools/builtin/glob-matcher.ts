/** One step of a glob: a character, `?`, `*`, `**`, `**\/` or a character class. */
type Token =
  | { readonly kind: 'char'; readonly ch: string }
  | { readonly kind: 'one' }
  | { readonly kind: 'part' }
  | { readonly kind: 'any' }
  | { readonly kind: 'folders' }
  | {
      readonly kind: 'class';
      readonly negated: boolean;
      readonly ranges: readonly (readonly [string, string])[];
    };

/** Alternatives a glob's `{a,b}` groups may spell out at most. */
const MAX_ALTERNATIVES = 256;

/** A compiled glob: `test` answers in time linear in the pattern times the path, never more. */
export interface GlobMatcher {
  test(path: string): boolean;
}

/**
 * A matcher for a glob against a whole `/`-separated path: `*` and `?` stay within one path part, `**`
 * spans parts (`**\/` also matches none), `[abc]`/`[!abc]`/`[a-z]` and `{a,b}` as in a shell. It walks a
 * table of (step, position) pairs instead of backtracking, so no pattern can take exponential time (a
 * regular expression made from `*a*a*a…b` could freeze the process). Throws SyntaxError for a `{` that
 * is never closed, or `{…}` groups that spell out more than 256 alternatives.
 */
export function globMatcher(pattern: string, ignoreCase: boolean): GlobMatcher {
  const programs = expandBraces(pattern, 0).map((p) => tokensOf(p, ignoreCase));
  return {
    test(path: string): boolean {
      return programs.some((tokens) => matches(tokens, path, ignoreCase));
    },
  };
}

/** Deepest `{…}` nesting read (a deeper one is refused rather than recursed into). */
const MAX_NESTING = 16;

/** Where the character class opening at `i` ends, as `tokensOf` reads it; -1 when it is not one. */
function classEnd(pattern: string, i: number): number {
  return pattern[i] === '[' ? pattern.indexOf(']', i + 2) : -1;
}

/** The first `{` outside a character class, or -1. */
function firstBrace(pattern: string): number {
  for (let i = 0; i < pattern.length; i += 1) {
    const end = classEnd(pattern, i);
    if (end !== -1) i = end;
    else if (pattern[i] === '{') return i;
  }
  return -1;
}

function expandBraces(pattern: string, nesting: number): string[] {
  const open = firstBrace(pattern);
  if (open === -1) return [pattern];
  if (nesting > MAX_NESTING) throw new SyntaxError(`its {…} groups nest deeper than ${MAX_NESTING}`);
  let depth = 0;
  const cuts: number[] = [];
  let close = -1;
  for (let i = open; i < pattern.length; i += 1) {
    const ch = pattern[i];
    const end = classEnd(pattern, i);
    if (end !== -1) i = end;
    else if (ch === '{') depth += 1;
    else if (ch === '}') {
      depth -= 1;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (ch === ',' && depth === 1) cuts.push(i);
  }
  if (close === -1) throw new SyntaxError(`the glob ${pattern} opens a { it never closes`);
  const head = pattern.slice(0, open);
  const tails = expandBraces(pattern.slice(close + 1), nesting);
  const bounds = [open, ...cuts, close];
  const out: string[] = [];
  for (let b = 0; b + 1 < bounds.length; b += 1) {
    for (const middle of expandBraces(pattern.slice((bounds[b] as number) + 1, bounds[b + 1]), nesting + 1)) {
      for (const tail of tails) {
        out.push(head + middle + tail);
        if (out.length > MAX_ALTERNATIVES) {
          throw new SyntaxError(`its {…} groups spell out more than ${MAX_ALTERNATIVES} alternatives`);
        }
      }
    }
  }
  return out;
}

function tokensOf(pattern: string, ignoreCase: boolean): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i] as string;
    if (ch === '*' && pattern[i + 1] === '*') {
      i += 1;
      if (pattern[i + 1] === '/') {
        i += 1;
        tokens.push({ kind: 'folders' });
      } else tokens.push({ kind: 'any' });
    } else if (ch === '*') tokens.push({ kind: 'part' });
    else if (ch === '?') tokens.push({ kind: 'one' });
    else {
      const end = classEnd(pattern, i);
      if (end === -1) tokens.push({ kind: 'char', ch: ignoreCase ? ch.toLowerCase() : ch });
      else {
        tokens.push(classOf(pattern.slice(i + 1, end)));
        i = end;
      }
    }
  }
  return tokens;
}

function classOf(body: string): Token {
  const negated = body.startsWith('!') || body.startsWith('^');
  const chars = [...(negated ? body.slice(1) : body)];
  const ranges: [string, string][] = [];
  for (let i = 0; i < chars.length; i += 1) {
    const from = chars[i] as string;
    if (chars[i + 1] === '-' && i + 2 < chars.length) {
      ranges.push([from, chars[i + 2] as string]);
      i += 2;
    } else ranges.push([from, from]);
  }
  return { kind: 'class', negated, ranges };
}

/** Whether the class takes `ch`; with `ignoreCase`, a member in either case counts as the character. */
function inClass(token: Extract<Token, { kind: 'class' }>, ch: string, ignoreCase: boolean): boolean {
  if (ch === '/') return false;
  const has = (c: string) => token.ranges.some(([from, to]) => c >= from && c <= to);
  const found = has(ch) || (ignoreCase && (has(ch.toLowerCase()) || has(ch.toUpperCase())));
  return found !== token.negated;
}

/** Whether `tokens` match all of `text`: a table of which positions each step can reach. */
function matches(tokens: readonly Token[], text: string, ignoreCase: boolean): boolean {
  // Characters compare in lower case, one at a time (lowering a whole text can change its length); a
  // class is asked about the character in either case, as a case-insensitive regular expression asks.
  const n = text.length;
  // reach[j]: the steps so far can end at text position j.
  let reach = new Uint8Array(n + 1);
  reach[0] = 1;
  for (const token of tokens) {
    const next = new Uint8Array(n + 1);
    if (token.kind === 'part' || token.kind === 'any' || token.kind === 'folders') {
      // A run: from each reached position, on to every later one it may cover.
      let open = false;
      for (let j = 0; j <= n; j += 1) {
        if (reach[j]) open = true;
        if (token.kind === 'folders') {
          // Empty, or anything that ends with a `/`.
          if (reach[j] || (open && text[j - 1] === '/')) next[j] = 1;
        } else if (open) next[j] = 1;
        if (token.kind === 'part' && text[j] === '/') open = false;
      }
    } else {
      for (let j = 0; j < n; j += 1) {
        if (!reach[j]) continue;
        const ch = text[j] as string;
        const ok =
          token.kind === 'char'
            ? (ignoreCase ? ch.toLowerCase() : ch) === token.ch
            : token.kind === 'one'
              ? ch !== '/'
              : inClass(token, ch, ignoreCase);
        if (ok) next[j + 1] = 1;
      }
    }
    if (!next.includes(1)) return false;
    reach = next;
  }
  return reach[n] === 1;
}
