import { describe, expect, it } from 'vitest';
import { iso } from '../../src/store/rows.js';
import { newId } from '../../src/store/store-context.js';

describe('newId', () => {
  it('gives the prefix and ten base32 characters, with no id twice across many refills of its pool', () => {
    const ids = Array.from({ length: 2500 }, (_, i) => newId(i % 2 === 0 ? 't' : 'session'));
    for (const [i, id] of ids.entries())
      expect(id).toMatch(i % 2 === 0 ? /^t-[0-9a-hjkmnp-tv-z]{10}$/ : /^session-[0-9a-hjkmnp-tv-z]{10}$/);
    expect(new Set(ids.map((id) => id.slice(id.indexOf('-') + 1))).size).toBe(ids.length);
  });

  it('uses every character of its alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, () => newId('x').slice(2)).join(''));
    expect(seen.size).toBe(32);
  });
});

describe('iso', () => {
  it('writes each time as Date does, the same time again and a new one alike', () => {
    for (const ms of [0, 1_700_000_000_123, 1_700_000_000_123, 1_700_000_000_124, 0, -1])
      expect(iso(ms)).toBe(new Date(ms).toISOString());
  });

  it('refuses a time that is not one, every time it is asked', () => {
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(Number.NaN)).toThrow(RangeError);
  });
});
