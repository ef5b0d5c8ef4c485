import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH, nestsTooDeep } from '../../src/core/json-depth.js';
import { jsonTextOf } from '../../src/core/json-text-of.js';

const deep = (n: number): unknown => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`);

describe('jsonDepth', () => {
  it('counts the levels of objects and lists', () => {
    expect(jsonDepth('x')).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: null }] })).toBe(3);
  });

  it('walks a value nested 200,000 deep without recursion, and stops early when asked', () => {
    expect(jsonDepth(deep(200_000))).toBe(200_000);
    expect(jsonDepth(deep(200_000), 10)).toBe(11);
    expect(nestsTooDeep(deep(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsTooDeep(deep(MAX_JSON_DEPTH + 1))).toBe(true);
  });
});

describe('jsonTextOf', () => {
  it('writes what JSON.stringify writes for any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => jsonTextOf(value) === JSON.stringify(value)));
  });

  it('leaves out undefined members as JSON.stringify does, and sorts keys when asked', () => {
    expect(jsonTextOf({ b: 1, a: undefined, c: [undefined] })).toBe('{"b":1,"c":[null]}');
    expect(jsonTextOf({ b: 1, a: { d: 2, c: 3 } }, { sortKeys: true })).toBe('{"a":{"c":3,"d":2},"b":1}');
  });

  it('writes a value nested 200,000 deep, which JSON.stringify cannot', () => {
    const value = { tree: deep(200_000) };
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(jsonTextOf(value)).toBe(`{"tree":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
  });
});
