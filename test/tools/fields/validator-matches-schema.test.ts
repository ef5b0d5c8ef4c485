import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../../../src/core/json.js';
import { type AnyField, defineTool, type Fields, field } from '../../../src/tools/index.js';

const NAMES = ['alpha', 'beta_gamma', 'deltaEpsilon', 'Zeta', 'eta'];
const WORDS = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffffffff'];

const bound = fc.option(fc.integer({ min: -3, max: 12 }), { nil: undefined });

const scalar: fc.Arbitrary<AnyField> = fc.oneof(
  fc
    .record({
      maxLength: fc.option(fc.nat(6), { nil: undefined }),
      minLength: fc.option(fc.nat(3), { nil: undefined }),
      enumerated: fc.boolean(),
      optional: fc.boolean(),
    })
    .map(({ maxLength, minLength, enumerated, optional }) => {
      const [low, high] =
        maxLength !== undefined && minLength !== undefined && minLength > maxLength
          ? [maxLength, minLength]
          : [minLength, maxLength];
      return field.string({
        ...(low === undefined ? {} : { minLength: low }),
        ...(high === undefined ? {} : { maxLength: high }),
        ...(enumerated ? { enum: ['bb', 'a', 'ccc'] } : {}),
        optional,
      });
    }),
  fc
    .record({ kind: fc.constantFrom('integer', 'number'), a: bound, b: bound, optional: fc.boolean() })
    .map(({ kind, a, b, optional }) => {
      const [min, max] = a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];
      const options = {
        ...(min === undefined ? {} : { min }),
        ...(max === undefined ? {} : { max }),
        optional,
      };
      return kind === 'integer' ? field.integer(options) : field.number(options);
    }),
  fc.boolean().map((safe) => (safe ? field.boolean({ safe: false }) : field.boolean())),
);

const fieldsOf = (item: fc.Arbitrary<AnyField>): fc.Arbitrary<Fields> =>
  fc
    .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), item), {
      minLength: 1,
      maxLength: 4,
      selector: ([n]) => n,
    })
    .map(Object.fromEntries);

const nested: fc.Arbitrary<AnyField> = fc.oneof(
  scalar,
  fc
    .tuple(scalar, fc.option(fc.nat(4), { nil: undefined }), fc.boolean())
    .map(([items, maxItems, optional]) =>
      field.list(items, { ...(maxItems === undefined ? {} : { maxItems }), optional }),
    ),
  fc.tuple(fieldsOf(scalar), fc.boolean()).map(([fields, optional]) => field.object(fields, { optional })),
);

/** Mostly a value that fits, sometimes any value of the right JSON type. */
function mostly<T>(fits: fc.Arbitrary<T>, any: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: fits, weight: 6 }, { arbitrary: any, weight: 1 });
}

/** Values of the declared JSON type at every leaf, with sizes, bounds, enum membership and keys left to chance. */
function sampleValue(spec: AnyField): fc.Arbitrary<unknown> {
  switch (spec.kind) {
    case 'string': {
      const any = fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 8 }));
      const fits = spec.enum
        ? fc.constantFrom(...spec.enum)
        : fc.string({ minLength: spec.minLength ?? 0, maxLength: spec.maxLength ?? 8 });
      return mostly(fits, any);
    }
    case 'integer':
      return mostly(
        fc.integer({ min: spec.min ?? -5, max: spec.max ?? 15 }),
        fc.integer({ min: -5, max: 15 }),
      );
    case 'number': {
      const [min, max] = [spec.min ?? -5, spec.max ?? 15];
      const fits = fc.oneof(fc.integer({ min, max }), fc.double({ min, max, noNaN: true }));
      return mostly(fits, fc.double({ min: -5, max: 15, noNaN: true }));
    }
    case 'boolean':
      return fc.boolean();
    case 'list':
      return mostly(
        fc.array(sampleValue(spec.items), { maxLength: spec.maxItems ?? 6 }),
        fc.array(sampleValue(spec.items), { maxLength: 6 }),
      );
    case 'object':
      return objectOf(spec.fields);
    default:
      throw new Error(`no generator for ${spec.kind}`);
  }
}

function objectOf(fields: Fields): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(fields).map(([name, spec]) =>
    fc.option(
      sampleValue(spec).map((v) => [name, v] as const),
      { freq: spec.required ? 20 : 2, nil: undefined },
    ),
  );
  const surplus = fc.oneof(
    { arbitrary: fc.constant([]), weight: 19 },
    { arbitrary: fc.constant([['surplus', 1] as const]), weight: 1 },
  );
  return fc
    .tuple(fc.tuple(...entries), surplus)
    .map(([given, extra]) => Object.fromEntries([...given.filter((e) => e !== undefined), ...extra]));
}

/** The offered schema with every object closed, as the validator treats it. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!isPlainObject(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema))
    copy[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as object).map(([n, s]) => [n, closed(s)]))
        : closed(v);
  if (schema['type'] === 'object') copy['additionalProperties'] = false;
  return copy;
}

function sameWhereGiven(given: unknown, read: unknown): boolean {
  if (Array.isArray(given))
    return (
      Array.isArray(read) && given.length === read.length && given.every((g, i) => sameWhereGiven(g, read[i]))
    );
  if (isPlainObject(given))
    return isPlainObject(read) && Object.keys(given).every((k) => sameWhereGiven(given[k], read[k]));
  return Object.is(given, read);
}

describe('the validator and the offered schema never drift', () => {
  it('accept and refuse the same well-typed calls, and a call that passes reaches the handler unchanged', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const seen = { accepted: 0, refused: 0 };
    const cases = fieldsOf(nested).chain((fields) => fc.tuple(fc.constant(fields), objectOf(fields)));
    fc.assert(
      fc.property(cases, ([fields, args]) => {
        const tool = defineTool({
          name: 'generated',
          description: 'A generated tool.',
          fields,
          handler: () => '',
        });
        const offered = ajv.compile(closed(tool.parameters) as object);
        const reading = tool.read(args);
        expect(reading.ok).toBe(offered(args));
        seen[reading.ok ? 'accepted' : 'refused'] += 1;
        if (reading.ok) expect(sameWhereGiven(args, reading.args)).toBe(true);
      }),
      { numRuns: 400 },
    );
    expect(Math.min(seen.accepted, seen.refused)).toBeGreaterThan(40);
  });
});
