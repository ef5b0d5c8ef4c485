import { describe, expect, it } from 'vitest';
import { conformParameters, fillOmittedNulls } from '../../src/seam/index.js';
import { deepFreeze, looseAjv, obj } from './support.js';

describe('a required argument that takes null', () => {
  it('is offered as optional, with a repair that says leaving it out sends null', () => {
    const declared = deepFreeze(
      obj(
        {
          a: { type: ['string', 'null'] },
          b: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
          c: { type: 'boolean', nullable: true },
          d: { type: 'string' },
          e: { type: ['number', 'null'] },
        },
        { required: ['a', 'b', 'c', 'd'] },
      ),
    );
    const result = conformParameters(declared);
    expect(result.parameters).toEqual(
      obj(
        {
          a: { type: 'string' },
          b: { type: 'integer' },
          c: { type: 'boolean' },
          d: { type: 'string' },
          e: { type: 'number' },
        },
        { required: ['d'] },
      ),
    );
    const made = result.issues.filter((i) => i.path === 'required');
    expect(made.map((i) => [i.rule, i.detail, i.fix])).toEqual(
      ['a', 'b', 'c'].map((n) => [
        'type_invalid',
        `"${n}" is required and takes null, which no provider can send`,
        'made it optional: leaving it out sends null',
      ]),
    );
  });

  it('is found inside nested objects, list elements and $ref targets', () => {
    const declared = deepFreeze({
      type: 'object',
      properties: {
        rows: { type: 'array', items: { $ref: '#/$defs/Row' } },
        meta: obj({ note: { type: ['string', 'null'] } }, { required: ['note'] }),
      },
      required: ['rows'],
      $defs: {
        Row: obj({ id: { type: 'string' }, tag: { type: ['string', 'null'] } }, { required: ['id', 'tag'] }),
      },
    });
    const offered = JSON.stringify(conformParameters(declared).parameters);
    const { required, properties } = JSON.parse(offered);
    expect(required).toEqual(['rows']);
    expect(properties.rows.items.required).toEqual(['id']);
    expect(properties.meta.required).toBeUndefined();
  });

  it('is found when only one branch says null and another says nothing of its type', () => {
    const declared = deepFreeze(
      obj(
        {
          pick: {
            anyOf: [
              { allOf: [obj({ a: { type: 'string' } }), obj({ b: { type: 'integer' } })] },
              { type: 'null' },
            ],
          },
          kept: { type: 'string', enum: ['x', null] },
        },
        { required: ['pick', 'kept'] },
      ),
    );
    expect(conformParameters(declared).parameters?.required).toEqual(['kept']);
    expect(fillOmittedNulls(declared, { kept: 'x' })).toEqual({ kept: 'x', pick: null });
  });

  it('is filled inside an allOf, and inside the one anyOf branch the call was meant for', () => {
    const declared = deepFreeze(
      obj(
        {
          opts: {
            allOf: [
              obj({ note: { type: ['string', 'null'] }, size: { type: 'integer' } }),
              { required: ['note'] },
            ],
          },
          pick: {
            anyOf: [
              obj(
                { kind: { type: 'string' }, when: { type: ['string', 'null'] } },
                { required: ['kind', 'when'] },
              ),
              obj({ other: { type: 'integer' } }, { required: ['other'], additionalProperties: false }),
            ],
          },
        },
        { required: ['opts', 'pick'] },
      ),
    );
    const { properties } = JSON.parse(JSON.stringify(conformParameters(declared).parameters));
    expect(properties.opts.required).toBeUndefined();
    expect(properties.pick.anyOf[0].required).toEqual(['kind']);
    const accepts = looseAjv().compile(declared);
    const filled = fillOmittedNulls(declared, { opts: { size: 1 }, pick: { kind: 'k' } });
    expect(filled).toEqual({ opts: { size: 1, note: null }, pick: { kind: 'k', when: null } });
    expect(accepts(filled)).toBe(true);
    const other = { opts: { size: 1, note: 'n' }, pick: { other: 2 } };
    expect(fillOmittedNulls(declared, other)).toBe(other);
    expect(accepts(other)).toBe(true);
  });

  it('stays required when its enum, const or oneOf rules null out after all', () => {
    const declared = deepFreeze(
      obj(
        {
          e: { type: ['string', 'null'], enum: ['a', 'b'] },
          c: { type: ['string', 'null'], const: 'a' },
          twice: { oneOf: [{ type: 'null' }, { type: ['integer', 'null'] }] },
          both: { type: ['string', 'null'], allOf: [{ type: 'string' }] },
        },
        { required: ['e', 'c', 'twice', 'both'] },
      ),
    );
    expect(conformParameters(declared).parameters?.required).toEqual(['e', 'c', 'twice', 'both']);
    expect(fillOmittedNulls(declared, {})).toEqual({});
  });

  it('stays required when it travels as JSON text (which carries null itself)', () => {
    const result = conformParameters(obj({ v: { type: ['object', 'null'] } }, { required: ['v'] }));
    expect(result.lifted.map((l) => l.path)).toEqual(['v']);
    expect(result.parameters?.required).toEqual(['v']);
  });
});

describe('fillOmittedNulls', () => {
  const declared = deepFreeze({
    type: 'object',
    properties: {
      title: { type: 'string' },
      due: { type: ['string', 'null'] },
      rows: { type: 'array', items: { $ref: '#/$defs/Row' } },
      meta: obj(
        { note: { anyOf: [{ type: 'string' }, { type: 'null' }] }, size: { type: 'integer' } },
        { required: ['note', 'size'] },
      ),
    },
    required: ['title', 'due', 'rows'],
    $defs: {
      Row: obj({ id: { type: 'string' }, tag: { type: ['string', 'null'] } }, { required: ['id', 'tag'] }),
    },
  });

  it('fills null where a required argument that takes null was left out, at any depth', () => {
    const args = deepFreeze({ title: 't', rows: [{ id: '1' }, { id: '2', tag: 'x' }], meta: {} });
    expect(fillOmittedNulls(declared, args)).toEqual({
      title: 't',
      due: null,
      rows: [
        { id: '1', tag: null },
        { id: '2', tag: 'x' },
      ],
      meta: { note: null },
    });
  });

  it('leaves alone what was sent, what cannot be null, and arguments that need nothing', () => {
    const complete = deepFreeze({ title: 't', due: '2026-01-01', rows: [] });
    expect(fillOmittedNulls(declared, complete)).toBe(complete);
    // `title` and `size` are missing but do not take null: the preflight reports them as missing.
    expect(fillOmittedNulls(declared, { rows: [], due: 'x', meta: { note: 'n' } })).toEqual({
      rows: [],
      due: 'x',
      meta: { note: 'n' },
    });
    expect(fillOmittedNulls(undefined, { a: 1 })).toEqual({ a: 1 });
  });

  it('fills a property named __proto__ as an own property', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":["string","null"]}},"required":["__proto__"]}',
    );
    const filled = fillOmittedNulls(schema, {});
    expect(Object.hasOwn(filled, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
  });
});

describe('asking whether a schema takes null', () => {
  it('answers a chain of definitions that each branch twice by reading each once', () => {
    // A0 → (A1 | A1) → … → A28 = null: 2^28 paths through 29 definitions.
    const $defs: Record<string, unknown> = { A28: { type: 'null' } };
    for (let i = 0; i < 28; i += 1) {
      $defs[`A${i}`] = { anyOf: [{ $ref: `#/$defs/A${i + 1}` }, { $ref: `#/$defs/A${i + 1}` }] };
    }
    const declared = deepFreeze({
      type: 'object',
      properties: {
        x: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/A0' }] },
        y: {
          anyOf: [{ type: 'string' }, { type: 'null' }],
          oneOf: [{ $ref: '#/$defs/A0' }, { type: 'string' }],
        },
      },
      required: ['x', 'y'],
      $defs,
    });
    const result = conformParameters(declared);
    expect(result.verdict).not.toBe('excluded');
    // x takes null through A0's chain: it is offered as optional and filled with null when left out.
    expect(fillOmittedNulls(declared, {})).toMatchObject({ x: null });
  });
});
