import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../../src/tools/builtin/glob-matcher.js';

/** The regular expression the glob tools used before (backtracking), kept here as the reference. */
function referenceRegExp(pattern: string, ignoreCase: boolean): RegExp {
  const escaped = (ch: string) => ch.replace(/[.+^$()|\\/\]}]/g, '\\$&');
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
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        let body = pattern.slice(i + 1, end);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        out += `[${negated ? '^/' : ''}${body.replace(/[\\[]/g, '\\$&')}]`;
        i = end;
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
  return new RegExp(`^${out}$`, ignoreCase ? 'i' : '');
}

describe('glob matching', () => {
  it('answers as the regular expression did, on random globs and paths', () => {
    const piece = fc.constantFrom(
      ...['a', 'b', 'B', '.', '/', '*', '**', '**/', '?', '[ab]', '[!a]', '[a-c]', '[Z-a]', '[{]', '[,}]'],
      ...['{a,b}', '{x,{a,b}c}', '{a,[b,c]}', 'ts'],
    );
    const text = fc
      .array(fc.constantFrom('a', 'b', 'B', 'c', '.', '/', 'x', 'ts', '{', '}', ',', '_', 'Z'), {
        maxLength: 12,
      })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), text, fc.boolean(), (parts, path, ignoreCase) => {
        const glob = parts.join('');
        let matcher: ReturnType<typeof globMatcher>;
        try {
          matcher = globMatcher(glob, ignoreCase);
        } catch (error) {
          // Refused on purpose: more alternatives than a glob may spell out.
          expect(String(error)).toMatch(/more than 256 alternatives/);
          return;
        }
        expect(matcher.test(path)).toBe(referenceRegExp(glob, ignoreCase).test(path));
      }),
      { numRuns: 5000 },
    );
  });

  it('answers a glob that made the regular expression backtrack for hours', () => {
    const glob = `${'*a'.repeat(200)}*b`;
    expect(globMatcher(glob, false).test(`${'a'.repeat(300)}.txt`)).toBe(false);
    expect(globMatcher(glob, false).test(`${'a'.repeat(300)}b`)).toBe(true);
  });

  it('refuses an open brace, braces nested too deep and braces that spell out too many alternatives', () => {
    expect(() => globMatcher('src/{a,b', false)).toThrow(/never closes/);
    expect(() => globMatcher(`${'{'.repeat(20000)}${'}'.repeat(20000)}`, false)).toThrow(/nest deeper than/);
    expect(() => globMatcher('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}', false)).toThrow(
      /more than 256/,
    );
  });
});
