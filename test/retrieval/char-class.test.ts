import { describe, expect, it } from 'vitest';
import { holdsFolded, isDigit, isSpace, isWordChar } from '../../src/retrieval/char-class.js';

describe('character classes', () => {
  it('agree with \\s, \\w and \\d on every UTF-16 code unit', () => {
    const wrong: string[] = [];
    for (let c = 0; c <= 0xffff; c += 1) {
      const ch = String.fromCharCode(c);
      if (isSpace(c) !== /\s/.test(ch)) wrong.push(`space ${c}`);
      if (isWordChar(c) !== /\w/.test(ch)) wrong.push(`word ${c}`);
      if (isDigit(c) !== /\d/.test(ch)) wrong.push(`digit ${c}`);
    }
    expect(wrong).toEqual([]);
    expect(isSpace(Number.NaN) || isWordChar(Number.NaN) || isDigit(Number.NaN)).toBe(false);
  });

  it('holdsFolded reads ASCII capitals as lowercase, as the i flag does, and nothing else', () => {
    expect(holdsFolded('Then go', 'then', 0)).toBe(true);
    expect(holdsFolded('go THEN', 'then', 3)).toBe(true);
    expect(holdsFolded('go the', 'then', 3)).toBe(false);
    // U+017F (long s) and U+0130 (dotted capital I) fold to ASCII under the u flag only.
    expect(holdsFolded('\u017Fo', 'so', 0)).toBe(/^so/i.test('\u017Fo'));
    expect(holdsFolded('\u0130t', 'it', 0)).toBe(/^it/i.test('\u0130t'));
  });
});
