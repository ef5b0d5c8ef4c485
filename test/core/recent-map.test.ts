import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../src/core/recent-map.js';

describe('RecentMap', () => {
  it('keeps at most its limit, letting the least recently used go first', () => {
    const map = new RecentMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) map.set(key, i);
    expect(map.get('a')).toBe(0); // now the most recent: b is the oldest
    map.set('d', 3);
    expect(map.size).toBe(3);
    expect(map.get('b')).toBeUndefined();
    expect([map.get('a'), map.get('c'), map.get('d')]).toEqual([0, 2, 3]);
    // setting a kept key again replaces it and makes it the most recent
    map.set('a', 10);
    map.set('e', 4);
    expect(map.get('c')).toBeUndefined();
    expect(map.get('a')).toBe(10);
    expect(map.size).toBe(3);
  });

  it('lets an entry go when asked, and refuses a limit below one', () => {
    const map = new RecentMap<object, string>(1);
    const key = {};
    map.set(key, 'kept');
    expect(map.delete(key)).toBe(true);
    expect(map.delete(key)).toBe(false);
    expect(map.get(key)).toBeUndefined();
    expect(() => new RecentMap(0)).toThrow(RangeError);
    expect(() => new RecentMap(1.5)).toThrow(RangeError);
  });
});
