import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortAscending } from '../../src/retrieval/sort-ascending.js';

describe('sortAscending', () => {
  it('orders whole numbers as the built-in numeric sort does, short lists and long ones, in place', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000, max: 100_000 }), { maxLength: 200 }), (values) => {
        const expected = [...values].sort((a, b) => a - b);
        const sorted = sortAscending(values);
        expect(sorted).toBe(values);
        expect(sorted).toEqual(expected);
      }),
    );
  });

  it('keeps repeated places and an empty list as they are', () => {
    expect(sortAscending([3, 1, 3, 0, 1])).toEqual([0, 1, 1, 3, 3]);
    expect(sortAscending([])).toEqual([]);
  });
});
