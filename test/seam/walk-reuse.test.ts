import { describe, expect, it } from 'vitest';
import { conformParameters } from '../../src/seam/index.js';
import { deepFreeze, obj } from './support.js';

/**
 * The walk reuses its state between passes (one walk object, per-depth scans and edits): these
 * cases check that nothing one pass or one node leaves behind reaches the next.
 */
describe('reused walk state', () => {
  it('gives each pass its own issues and lifted lists, untouched by later passes', () => {
    const first = conformParameters(
      deepFreeze(obj({ a: { type: ['string', 'null'] }, b: { type: 'object' } }, { $schema: 'x' })),
    );
    const issues = first.issues.map((i) => `${i.rule} ${i.path}`);
    const lifted = first.lifted.map((l) => l.path);
    const second = conformParameters(deepFreeze(obj({ c: { type: 'object', additionalProperties: true } })));
    const third = conformParameters(deepFreeze(obj({ d: { type: 'string' } })));

    expect(first.issues.map((i) => `${i.rule} ${i.path}`)).toEqual(issues);
    expect(first.lifted.map((l) => l.path)).toEqual(lifted);
    expect(lifted).toEqual(['b']);
    expect(second.issues).not.toBe(first.issues);
    expect(second.lifted.map((l) => l.path)).toEqual(['c']);
    expect(third.verdict).toBe('portable');
    expect(third.issues).toEqual([]);
    expect(third.lifted).toEqual([]);
  });

  it('keeps a node’s repairs to that node, whatever its siblings and children needed', () => {
    const untouched = obj({ x: { type: 'string', description: 'kept' } });
    const declared = deepFreeze(
      obj(
        {
          edited: obj({ inner: { type: 'string', format: 'uri' } }, { additionalProperties: false }),
          untouched,
          nested: obj({ deeper: obj({ leaf: { type: ['integer', 'null'] } }, { minProperties: 1 }) }),
        },
        { additionalProperties: false },
      ),
    );
    const result = conformParameters(declared);
    const props = result.parameters?.properties as Record<string, Record<string, unknown>>;

    expect(props.untouched).toBe(untouched);
    expect(props.edited).toEqual(obj({ inner: { type: 'string' } }));
    expect(props.nested).toEqual(obj({ deeper: obj({ leaf: { type: 'integer' } }, { minProperties: 1 }) }));
    expect(result.parameters).not.toHaveProperty('additionalProperties');
    expect(result.issues.map((i) => i.path)).toEqual([
      'additionalProperties',
      'properties.edited.additionalProperties',
      'properties.edited.properties.inner.format',
      'properties.nested.properties.deeper.properties.leaf.type',
    ]);
  });

  it('reports a shared definition’s defects once and lifts its arguments at every reference', () => {
    const declared = deepFreeze({
      type: 'object',
      properties: { first: { $ref: '#/$defs/Box' }, second: { $ref: '#/$defs/Box' } },
      $defs: {
        Box: obj({ label: { type: ['string', 'null'] }, extra: { type: 'object' } }),
      },
    });
    const result = conformParameters(declared);

    expect(result.lifted.map((l) => l.path)).toEqual(['first.extra', 'second.extra']);
    const labels = result.issues.filter((i) => i.path.endsWith('label.type'));
    expect(labels.map((i) => i.path)).toEqual(['properties.first.properties.label.type']);
    const props = result.parameters?.properties as Record<string, unknown>;
    expect(props.second).toEqual(props.first);
  });
});
