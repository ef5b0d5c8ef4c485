import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import { conformParameters, decodeLiftedArguments, type LiftedArgument } from '../../src/seam/index.js';
import { NONE, sampleValue, seeded } from './sample-value.js';
import { rootArbitrary } from './schema-arbitrary.js';
import { strictProblems } from './strict-profile.js';
import { deepFreeze, looseAjv } from './support.js';

type Value = unknown;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets an own property (a plain assignment to `__proto__` would set the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Replaces the value at a lifted path with its JSON text (the model's side of the codec). */
function encodeAt(value: Value, lift: LiftedArgument, at = 0): Value {
  const step = lift.steps[at];
  if (step === undefined) return JSON.stringify(value);
  if (step.kind === 'element')
    return Array.isArray(value) ? value.map((v) => encodeAt(v, lift, at + 1)) : value;
  if (!isObject(value) || !Object.hasOwn(value, step.name)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    setOwn(copy, key, key === step.name ? encodeAt(value[key], lift, at + 1) : value[key]);
  return copy;
}

/** Leaves out every null-valued property (an argument that can be omitted is, instead of null). */
function dropNullProperties(value: Value): Value {
  if (Array.isArray(value)) return value.map(dropNullProperties);
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    if (value[key] !== null) setOwn(copy, key, dropNullProperties(value[key]));
  return copy;
}

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties'];

/** Keywords that apply to one type only, so an untyped node carrying them means that type. */
const TYPE_OF_KEYWORD: Record<string, string> = {
  properties: 'object',
  additionalProperties: 'object',
  patternProperties: 'object',
  required: 'object',
  minProperties: 'object',
  maxProperties: 'object',
  items: 'array',
  prefixItems: 'array',
  minItems: 'array',
  maxItems: 'array',
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  minimum: 'number',
  maximum: 'number',
};

const UNTYPED_AS_DECLARED = ['type', 'anyOf', 'oneOf', 'allOf', '$ref', 'const', 'enum'];

/**
 * The declared schema as its author meant it: an object that declares properties takes those
 * (alternatives that name different keys do not let one key slip in under another's schema), and
 * an untyped node whose keywords all belong to one type is of that type (the seam's documented
 * reading). Values are kept only when this reading accepts them; the seam's repairs are held to it.
 */
function closeObjects(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(v)) setOwn(out, key, v.map(closeObjects));
    else if (SUBSCHEMA_MAPS.includes(key) && isObject(v)) {
      const map: Record<string, unknown> = {};
      for (const name of Object.keys(v)) setOwn(map, name, closeObjects(v[name]));
      setOwn(out, key, map);
    } else if (['items', 'additionalProperties', 'not'].includes(key)) setOwn(out, key, closeObjects(v));
    else setOwn(out, key, v);
  }
  if (
    isObject(node.properties) &&
    node.additionalProperties === undefined &&
    node.patternProperties === undefined
  ) {
    out.additionalProperties = false;
  }
  if (!UNTYPED_AS_DECLARED.some((k) => k in node)) {
    const implied = new Set(
      Object.keys(node).flatMap((k) => (TYPE_OF_KEYWORD[k] ? [TYPE_OF_KEYWORD[k]] : [])),
    );
    if (implied.size === 1) out.type = [...implied][0];
  }
  return out;
}

/** A validator's verdict, or undefined when it cannot give one (a left-recursive schema overflows Ajv). */
function judge(
  validate: (value: unknown) => boolean | Promise<unknown>,
  value: unknown,
): boolean | undefined {
  try {
    return validate(value) === true;
  } catch {
    return undefined;
  }
}

/** What a model sends for a value the tool accepts: lifted paths as JSON text, null arguments left out. */
function toWire(value: Value, lifted: readonly LiftedArgument[]): Value {
  let wire = value;
  for (const lift of [...lifted].reverse()) wire = encodeAt(wire, lift);
  return dropNullProperties(wire);
}

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
          if (value === NONE || judge(acceptsDeclared, value) !== true) continue;
          tally.samples += 1;
          if (result.lifted.length > 0) tally.samplesThroughLifts += 1;
          const wire = toWire(value, result.lifted);
          if (!acceptsOffered(wire)) {
            throw new Error(
              `the offered schema refuses a value the declared one accepts\ndeclared: ${JSON.stringify(declared)}\n` +
                `offered: ${JSON.stringify(offered)}\nvalue: ${JSON.stringify(value)}\nwire: ${JSON.stringify(wire)}\n` +
                `errors: ${JSON.stringify(acceptsOffered.errors)}`,
            );
          }
          const decoded = decodeLiftedArguments(wire as JsonObject, result.lifted);
          expect(decoded.ok).toBe(true);
          if (decoded.ok) expect(judge(acceptsDeclared, decoded.arguments)).toBe(true);
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
