import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import {
  conformParameters,
  decodeLiftedArguments,
  fillOmittedNulls,
  restoreDeclaredKeys,
} from '../../src/seam/index.js';
import { closeObjects, dropNullProperties, judge, toWire } from './declared-reading.js';
import { NONE, sampleValue, seeded } from './sample-value.js';
import { rootArbitrary } from './schema-arbitrary.js';
import { strictProblems } from './strict-profile.js';
import { deepFreeze, looseAjv } from './support.js';

describe('conform, over thousands of random defect-laden schemas', () => {
  const ajv = looseAjv();
  const tally = { schemas: 0, excluded: 0, lifted: 0, samples: 0, samplesThroughLifts: 0 };

  it('always offers a portable schema that accepts every value the declared one accepts', () => {
    fc.assert(
      fc.property(rootArbitrary, fc.integer({ min: 1, max: 2 ** 30 }), (raw, seed) => {
        const declared = deepFreeze(structuredClone(raw));
        const result = conformParameters(declared);
        tally.schemas += 1;
        if (result.verdict === 'excluded') {
          tally.excluded += 1;
          expect(result.parameters).toBeUndefined();
          // Only the root can be beyond carrying: anything inside travels as JSON text at worst.
          expect(result.issues.filter((i) => i.action === 'blocking').map((i) => i.path)).toEqual(['']);
          return;
        }
        const offered = result.parameters as object;
        expect(strictProblems(offered)).toEqual([]);
        if (result.verdict === 'portable') expect(offered).toBe(declared);
        if (result.lifted.length > 0) tally.lifted += 1;
        let acceptsDeclared: ReturnType<typeof ajv.compile>;
        const meant = closeObjects(declared) as object;
        try {
          acceptsDeclared = ajv.compile(meant);
        } catch {
          return; // a declared schema no validator can read accepts nothing we can sample
        }
        const acceptsOffered = ajv.compile(offered);
        const rng = seeded(seed);
        for (let k = 0; k < 10; k += 1) {
          const value = sampleValue(declared, rng);
          // Ajv checks nothing under a property named `__proto__`, so it cannot tell whether such a
          // value is one the declared schema accepts (a contradictory `allOf` there passed it).
          if (value === NONE || holdsProtoKey(value) || judge(acceptsDeclared, value) !== true) continue;
          tally.samples += 1;
          if (result.lifted.length > 0) tally.samplesThroughLifts += 1;
          const wire = toWire(value, result.lifted, result.renamed);
          if (!acceptsOffered(wire)) {
            throw new Error(
              `the offered schema refuses a value the declared one accepts\ndeclared: ${JSON.stringify(declared)}\n` +
                `offered: ${JSON.stringify(offered)}\nvalue: ${JSON.stringify(value)}\nwire: ${JSON.stringify(wire)}\n` +
                `errors: ${JSON.stringify(acceptsOffered.errors)}`,
            );
          }
          const decoded = decodeLiftedArguments(
            restoreDeclaredKeys(wire as JsonObject, result.renamed),
            result.lifted,
          );
          expect(decoded.ok).toBe(true);
          if (!decoded.ok) continue;
          // As the runtime does: a required argument that takes null, left out, is null.
          const received = fillOmittedNulls(declared, decoded.arguments);
          // The tool gets back what was meant, less the null-valued arguments the model leaves out
          // (to the declared schema an absent optional argument is not always the same as a null one:
          // under a oneOf, say), and exactly what was meant when there were none.
          expect(asJson(dropNullProperties(received))).toEqual(asJson(dropNullProperties(value)));
          if (!hasNullProperty(value)) expect(judge(acceptsDeclared, received)).toBe(true);
        }
        ajv.removeSchema(meant);
        ajv.removeSchema(offered);
      }),
      { numRuns: 2000 },
    );
    // The property must have had something to chew on: many schemas, many of them lifted, many real samples.
    expect(tally.samples).toBeGreaterThan(2000);
    expect(tally.samplesThroughLifts).toBeGreaterThan(500);
    expect(tally.lifted).toBeGreaterThan(500);
    expect(tally.excluded).toBeLessThan(tally.schemas / 10);
  }, 180_000);

  it('never throws on anything at all, nested anywhere', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 5 }), (anything, json) => {
        for (const declared of [anything, json, { type: 'object', properties: { a: anything, b: json } }]) {
          const result = conformParameters(declared);
          if (result.parameters !== undefined) expect(strictProblems(result.parameters)).toEqual([]);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('stays bounded on cyclic objects and very deep nesting', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    (cyclic.properties as Record<string, unknown>).list = { type: 'array', items: cyclic };
    const a = conformParameters(cyclic);
    expect(a.verdict).toBe('lifted');
    expect(strictProblems(a.parameters)).toEqual([]);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i += 1) deep = { anyOf: [deep, { type: 'integer' }] };
    const b = conformParameters({ type: 'object', properties: { deep } });
    expect(b.lifted.map((l) => l.path)).toEqual(['deep']);
  });
});

/** True when an object anywhere in `value` has a property whose value is null. */
function hasNullProperty(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasNullProperty);
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((v) => v === null || hasNullProperty(v));
}

/** True when an object anywhere in `value` has an own property named `__proto__`. */
function holdsProtoKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsProtoKey);
  if (typeof value !== 'object' || value === null) return false;
  return Object.hasOwn(value, '__proto__') || Object.values(value).some(holdsProtoKey);
}

/** `value` as JSON carries it (-0 becomes 0, as in any JSON text the model sends). */
function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
