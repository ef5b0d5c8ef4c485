import { describe, expect, it } from 'vitest';
import { conformParameters, schemaIssues } from '../../src/seam/index.js';
import { strictProblems } from './strict-profile.js';
import { deepFreeze, looseAjv, obj } from './support.js';

/** Conforms a frozen copy (any mutation throws) and checks the offered schema is portable. */
function conform(declared: unknown) {
  const result = conformParameters(deepFreeze(declared));
  if (result.parameters !== undefined) expect(strictProblems(result.parameters)).toEqual([]);
  return result;
}

function rules(declared: unknown) {
  return conform(declared).issues.map((i) => [i.rule, i.path, i.action]);
}

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

describe('what has no portable form travels as JSON text', () => {
  it('carries a list without items as JSON text instead of leaving the tool out', () => {
    const result = conform(obj({ deliverables: { type: 'array' } }));
    expect(result.verdict).toBe('lifted');
    expect(rules(obj({ deliverables: { type: 'array' } }))).toEqual([
      ['array_items_missing', 'properties.deliverables', 'lifted'],
    ]);
    expect(result.lifted.map((l) => [l.path, l.takes])).toEqual([['deliverables', ['array']]]);
    expect(result.parameters?.properties).toEqual({
      deliverables: { type: 'string', description: expect.stringContaining('JSON text') },
    });
  });

  it('reports every defect in one pass, in order', () => {
    const declared = obj({
      a: { type: 'array' },
      b: { type: 'array' },
      c: { type: 'array' },
      d: { type: 'object' },
    });
    expect(rules(declared)).toEqual([
      ['array_items_missing', 'properties.a', 'lifted'],
      ['array_items_missing', 'properties.b', 'lifted'],
      ['array_items_missing', 'properties.c', 'lifted'],
      ['object_properties_missing', 'properties.d', 'lifted'],
    ]);
  });

  it('lifts free-form objects, maps and untyped values, keeping their own description', () => {
    const result = conform(
      obj({
        meta: { type: 'object', description: 'anything about it' },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        anything: { description: 'any value' },
      }),
    );
    expect(result.issues.map((i) => [i.rule, i.path, i.action])).toEqual([
      ['object_properties_missing', 'properties.meta', 'lifted'],
      ['object_properties_missing', 'properties.env', 'lifted'],
      ['type_missing', 'properties.anything', 'lifted'],
    ]);
    const props = result.parameters?.properties as Record<string, { description: string }>;
    expect(props.meta?.description).toMatch(/^anything about it\. Send it as JSON text: an object\.$/);
    expect(props.env?.description).toContain('an object mapping names to a string');
    expect(result.lifted.map((l) => [l.path, l.takes])).toEqual([
      ['meta', ['object']],
      ['env', ['object']],
      ['anything', undefined],
    ]);
  });

  it('lifts a recursive reference where it recurses, and inlines it once', () => {
    const declared = {
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node' } },
      $defs: { Node: obj({ name: { type: 'string' }, child: { $ref: '#/$defs/Node' } }) },
    };
    const result = conform(declared);
    expect(result.issues).toContainEqual(
      expect.objectContaining({
        rule: 'keyword_unsupported',
        path: 'properties.node.properties.child',
        action: 'lifted',
      }),
    );
    expect(result.lifted.map((l) => l.path)).toEqual(['node.child']);
    const node = (result.parameters?.properties as Record<string, Record<string, unknown>> | undefined)?.node;
    expect(node?.properties).toEqual({
      name: { type: 'string' },
      child: { type: 'string', description: 'Send it as JSON text: an object with keys name, child.' },
    });
  });

  it('lifts a whole list when its items have no portable form, and a whole anyOf when a branch has none', () => {
    const result = conform(
      obj({
        rows: { type: 'array', items: { type: 'object' } },
        x: { anyOf: [{ type: 'string' }, { type: 'array' }] },
      }),
    );
    expect(result.issues.map((i) => [i.rule, i.path])).toEqual([
      ['object_properties_missing', 'properties.rows.items'],
      ['array_items_missing', 'properties.x.anyOf[1]'],
    ]);
    expect(result.lifted.map((l) => [l.path, l.takes])).toEqual([
      ['rows', ['array']],
      ['x', ['string', 'array']],
    ]);
  });

  it('names lifted arguments inside lists of objects with []', () => {
    const result = conform(obj({ steps: { type: 'array', items: obj({ config: { type: 'object' } }) } }));
    expect(result.lifted.map((l) => l.path)).toEqual(['steps[].config']);
    expect(result.lifted[0]?.steps).toEqual([
      { kind: 'property', name: 'steps' },
      { kind: 'element' },
      { kind: 'property', name: 'config' },
    ]);
  });

  it('stops inlining references past its budget, so generated schemas stay a sane size', () => {
    const defs: Record<string, unknown> = { D20: { type: 'string' } };
    for (let i = 0; i < 20; i += 1) {
      defs[`D${i}`] = obj({ l: { $ref: `#/$defs/D${i + 1}` }, r: { $ref: `#/$defs/D${i + 1}` } });
    }
    const result = conform({ type: 'object', properties: { x: { $ref: '#/$defs/D0' } }, $defs: defs });
    expect(result.verdict).toBe('lifted');
    expect(result.issues.some((i) => i.detail.includes('one reference too many to inline'))).toBe(true);
    expect(JSON.stringify(result.parameters).length).toBeLessThan(20_000);
  });

  it('carries what is nested too deep or is too large as JSON text', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i += 1) deep = obj({ down: deep });
    const tooDeep = conform(obj({ top: deep }));
    expect(tooDeep.issues.map((i) => i.detail)).toEqual([
      'the schema is too deep or too large to carry node by node',
    ]);
    const wide: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i += 1) wide[`p${i}`] = { type: 'string' };
    const tooLarge = conform(obj({ many: obj(wide) }));
    expect(tooLarge.verdict).toBe('lifted');
    expect(tooLarge.lifted.length).toBeGreaterThan(0);
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
