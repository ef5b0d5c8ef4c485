import { describe, expect, it } from 'vitest';
import { conformParameters, schemaIssues } from '../../src/seam/index.js';
import { conform, rules } from './conform-checked.js';
import { strictProblems } from './strict-profile.js';
import { deepFreeze, looseAjv, obj } from './support.js';

const ajv = looseAjv();

describe('a schema that is portable as declared', () => {
  it('comes back as the very same object, with no issues', () => {
    const declared = obj(
      {
        q: { type: 'string', enum: ['a', 'b'], description: 'what to look for' },
        n: { type: 'integer', minimum: 1 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
        when: { type: 'string', format: 'date-time' },
        nested: obj({ k: { type: 'boolean' } }, { required: ['k'] }),
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      { required: ['q'] },
    );
    const result = conform(declared);
    expect(result.issues).toEqual([]);
    expect(result.verdict).toBe('portable');
    expect(result.parameters).toBe(declared);
    expect(schemaIssues(declared)).toEqual([]);
  });

  it('takes no arguments when parameters are absent, null, {} or an empty object schema', () => {
    for (const declared of [undefined, null, {}, { type: 'object', properties: {} }]) {
      const result = conform(declared);
      expect(result.issues).toEqual([]);
      expect(result.parameters).toEqual({ type: 'object', properties: {} });
    }
  });
});

describe('repairs never change what the tool accepts', () => {
  it('drops narrowing and annotating keywords without touching the input', () => {
    const declared = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: {
        a: { type: 'string', examples: ['x'], 'x-meta': 1, nullable: true },
        b: { type: 'number', exclusiveMinimum: 0, multipleOf: 2 },
      },
    };
    const result = conform(declared);
    expect(result.parameters).toEqual(obj({ a: { type: 'string' }, b: { type: 'number' } }));
    expect(result.issues.every((i) => i.action === 'repaired')).toBe(true);
    expect(result.verdict).toBe('repaired');
    expect(declared.additionalProperties).toBe(false);
  });

  it('inlines a local reference with its sibling description', () => {
    const result = conform({
      type: 'object',
      properties: { who: { $ref: '#/$defs/Person', description: 'the person' } },
      $defs: { Person: obj({ name: { type: 'string' } }) },
    });
    expect(result.parameters?.properties).toEqual({
      who: { type: 'object', description: 'the person', properties: { name: { type: 'string' } } },
    });
  });

  it('follows any local JSON pointer, not just $defs', () => {
    const result = conform(
      obj({
        a: obj({ id: { type: 'string' } }),
        b: { $ref: '#/properties/a' },
        c: { $ref: '#/properties/a/properties/id' },
      }),
    );
    expect(result.parameters?.properties).toEqual({
      a: obj({ id: { type: 'string' } }),
      b: obj({ id: { type: 'string' } }),
      c: { type: 'string' },
    });
  });

  it('narrows nullable types to the type (the argument is omitted instead) and widens oneOf to anyOf', () => {
    const result = conform(
      obj({
        a: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
        b: { type: ['integer', 'null'] },
        c: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      }),
    );
    expect(result.parameters?.properties).toEqual({
      a: { type: 'string', default: null },
      b: { type: 'integer' },
      c: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    });
  });

  it('makes a type list of several types an anyOf, each branch keeping its own keywords', () => {
    const result = conform(
      obj({ t: { type: ['string', 'number', 'null'], description: 'x', maxLength: 3, minimum: 1 } }),
    );
    expect(result.parameters?.properties).toEqual({
      t: {
        description: 'x',
        anyOf: [
          { type: 'string', maxLength: 3 },
          { type: 'number', minimum: 1 },
        ],
      },
    });
  });

  it('turns a string const into a one-value enum and infers an unambiguous missing type', () => {
    const result = conform(
      obj({ k: { const: 'fixed' }, e: { enum: ['a', 'b'] }, n: { type: 'integer', const: 3 } }),
    );
    expect(result.parameters?.properties).toEqual({
      k: { type: 'string', enum: ['fixed'] },
      e: { type: 'string', enum: ['a', 'b'] },
      n: { type: 'integer' },
    });
  });

  it('repairs enums: off non-strings, non-string values and repeats dropped; an empty string keeps every string', () => {
    const result = conform(
      obj({
        n: { type: 'integer', enum: [1, 2] },
        s: { type: 'string', enum: [] },
        m: { type: 'string', enum: ['a', 3, 'a'] },
        e: { type: 'string', enum: ['', 'a', 'a'] },
        z: { type: 'string', enum: [''] },
      }),
    );
    expect(result.issues.filter((i) => i.rule === 'enum_invalid').map((i) => i.path)).toEqual([
      'properties.n.enum',
      'properties.s.enum',
      'properties.m.enum',
      'properties.e.enum',
      'properties.z.enum',
    ]);
    const props = result.parameters?.properties as Record<string, Record<string, unknown>>;
    expect(props.n).toEqual({ type: 'integer' });
    expect(props.s).toEqual({ type: 'string' });
    expect(props.m).toEqual({ type: 'string', enum: ['a'] });
    expect(props.e).toEqual({ type: 'string', description: 'One of "a", or an empty string.' });
    expect(props.z).toEqual({ type: 'string', description: 'Only an empty string.' });
    expect(ajv.validate(result.parameters as object, { e: '' })).toBe(true);
  });

  it('drops required names that are not declared properties', () => {
    const result = conform(obj({ a: { type: 'string' } }, { required: ['a', 'ghost', 'a'] }));
    expect(result.parameters?.required).toEqual(['a']);
    expect(result.issues.map((i) => [i.rule, i.path, i.action])).toEqual([
      ['required_invalid', 'required', 'repaired'],
      ['required_invalid', 'required', 'repaired'],
    ]);
  });

  it('keeps only the date-time format', () => {
    const result = conform(
      obj({ u: { type: 'string', format: 'uri' }, n: { type: 'number', format: 'double' } }),
    );
    expect(result.parameters?.properties).toEqual({ u: { type: 'string' }, n: { type: 'number' } });
  });

  it('names the type a dropped keyword met with the right article', () => {
    const result = conform(
      obj({
        n: { type: 'integer', format: 'int32', enum: [1, 2] },
        o: { type: 'object', properties: { a: { type: 'string' } }, minLength: 1 },
        c: { const: 3 },
      }),
    );
    expect(result.issues.map((i) => i.detail)).toEqual([
      'format "int32" on an integer is not portable',
      'an `enum` on an integer is not portable',
      '`minLength` does not apply to an object',
      'an integer `const` is not portable',
    ]);
  });

  it('merges allOf branches (references included) into one node', () => {
    const result = conform({
      type: 'object',
      properties: {
        item: {
          allOf: [{ $ref: '#/$defs/Base' }, obj({ size: { type: 'integer' } }, { required: ['size'] })],
        },
      },
      $defs: { Base: obj({ id: { type: 'string' } }, { required: ['id'] }) },
    });
    expect(result.parameters?.properties).toEqual({
      item: {
        type: 'object',
        properties: { id: { type: 'string' }, size: { type: 'integer' } },
        required: ['id', 'size'],
      },
    });
  });

  it('moves keywords beside anyOf into each branch', () => {
    const result = conform(
      obj({
        target: {
          type: 'object',
          properties: { id: { type: 'string' }, path: { type: 'string' } },
          anyOf: [{ required: ['id'] }, { required: ['path'] }],
        },
      }),
    );
    const props = { id: { type: 'string' }, path: { type: 'string' } };
    expect(result.parameters?.properties).toEqual({
      target: {
        anyOf: [
          { type: 'object', properties: props, required: ['id'] },
          { type: 'object', properties: props, required: ['path'] },
        ],
      },
    });
  });

  it('merges object alternatives at the top level into one object', () => {
    for (const combinator of ['anyOf', 'oneOf']) {
      const result = conform({
        [combinator]: [obj({ a: { type: 'string' } }, { required: ['a'] }), obj({ b: { type: 'string' } })],
      });
      expect(result.parameters).toEqual(obj({ a: { type: 'string' }, b: { type: 'string' } }));
      expect(result.issues.some((i) => i.rule === 'root_combinator' && i.action === 'repaired')).toBe(true);
    }
    const merged = conform({ allOf: [obj({ a: { type: 'string' } }), obj({ b: { type: 'string' } })] });
    expect(merged.parameters).toEqual(obj({ a: { type: 'string' }, b: { type: 'string' } }));
  });

  it('offers a map at the root as an object that takes any keys', () => {
    const result = conform({ type: 'object', additionalProperties: { type: 'string' } });
    expect(result.parameters).toEqual({ type: 'object', properties: {} });
    expect(result.issues.map((i) => [i.rule, i.path, i.action])).toEqual([
      ['object_properties_missing', 'additionalProperties', 'repaired'],
      ['object_properties_missing', '', 'repaired'],
    ]);
  });

  it('keeps text as text where another branch offers a string at a lifted path', () => {
    const result = conform(
      obj({
        v: {
          anyOf: [
            obj({ kind: { const: 'json' }, value: { type: 'object' } }),
            obj({ kind: { const: 'text' }, value: { type: 'string' } }),
          ],
        },
      }),
    );
    expect(result.lifted.map((l) => [l.path, l.takes])).toEqual([['v.value', ['object', 'string']]]);
  });

  it('keeps a property named __proto__ as a property', () => {
    const declared = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","format":"uri"}}}',
    );
    const props = conform(declared).parameters?.properties as Record<string, unknown>;
    expect(Object.hasOwn(props, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(props)).toBe(Object.prototype);
  });
});

describe('a tool is left out only when nothing can carry it', () => {
  it('leaves out a root that is not an object', () => {
    for (const declared of [
      { type: 'string' },
      'text',
      42,
      [obj({})],
      { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    ]) {
      const result = conform(declared);
      expect(result.verdict).toBe('excluded');
      expect(result.parameters).toBeUndefined();
      expect(result.issues.at(-1)?.action).toBe('blocking');
    }
    expect(rules({ type: 'string' })).toEqual([['root_not_object', '', 'blocking']]);
  });

  it('follows a root reference, reading what it points at as the root', () => {
    const result = conform({
      $ref: '#/definitions/Args',
      definitions: { Args: { additionalProperties: { type: 'string' } } },
    });
    expect(result.parameters).toEqual({ type: 'object', properties: {} });
    expect(result.verdict).toBe('repaired');
  });

  it('leaves out a root reference that points nowhere', () => {
    expect(rules({ $ref: '#/$defs/Missing' })).toEqual([['keyword_unsupported', '', 'blocking']]);
  });
});

describe('a long required list', () => {
  it('keeps one entry per name, dropping a repeat and an undeclared name, in the order given', () => {
    const names = Array.from({ length: 200 }, (_, i) => `p${i}`);
    const properties = Object.fromEntries(names.map((n) => [n, { type: 'string' }]));
    const result = conformParameters({
      type: 'object',
      properties,
      required: [...names, 'p5', 'nope'],
    });
    expect((result.parameters as { required: string[] }).required).toEqual(names);
    expect(result.issues.map((i) => i.detail)).toEqual([
      '"p5" is listed twice',
      '"nope" is required but is not a declared property',
    ]);
  });
});

describe('a list whose elements may be null', () => {
  it('travels as JSON text, which carries null elements, however the null is declared', () => {
    for (const items of [
      { type: ['string', 'number', 'null'] },
      { type: ['string', 'null'] },
      { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      { type: 'string', nullable: true },
      { type: 'array', items: { type: ['string', 'null'] } },
      { $ref: '#/$defs/MaybeText' },
      { type: 'string', enum: ['a', null] },
    ]) {
      const result = conformParameters(
        deepFreeze({
          type: 'object',
          properties: { rows: { type: 'array', items } },
          $defs: { MaybeText: { type: ['string', 'null'] } },
        }),
      );
      expect(result.verdict).toBe('lifted');
      expect(result.lifted.map((l) => l.path)).toEqual(['rows']);
      expect(strictProblems(result.parameters as object)).toEqual([]);
    }
  });

  it('keeps an argument that may be null as a plain optional argument', () => {
    const result = conformParameters(obj({ note: { type: ['string', 'null'] } }));
    expect(result.verdict).toBe('repaired');
    expect(result.parameters).toEqual(obj({ note: { type: 'string' } }));
  });
});

describe('bounds and patterns a provider cannot read', () => {
  it('drops a count too large for an int64 and a pattern that is not a regular expression', () => {
    const result = conformParameters(
      obj({
        a: { type: 'string', maxLength: 1e300, pattern: '[' },
        b: { type: 'array', items: { type: 'string' }, maxItems: 2 ** 64 },
        c: { type: 'string', maxLength: 10, pattern: '^[a-z]+$' },
      }),
    );
    expect(result.parameters).toEqual(
      obj({
        a: { type: 'string' },
        b: { type: 'array', items: { type: 'string' } },
        c: { type: 'string', maxLength: 10, pattern: '^[a-z]+$' },
      }),
    );
    expect(result.issues.map((i) => i.path)).toEqual([
      'properties.a.maxLength',
      'properties.a.pattern',
      'properties.b.maxItems',
    ]);
  });
});
