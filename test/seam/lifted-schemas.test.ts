import { describe, expect, it } from 'vitest';
import { conform, rules } from './conform-checked.js';
import { obj } from './support.js';

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

  it('tells the model that an empty anyOf takes no value (its hint was cut short: "Send it as JSON text: .")', () => {
    const result = conform(obj({ pick: { anyOf: [], description: 'The choice' } }));
    expect(result.verdict).toBe('lifted');
    expect(result.parameters?.properties).toEqual({
      pick: {
        type: 'string',
        description: 'The choice. Its declared schema lists no choices, so no value fits: leave it out.',
      },
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
