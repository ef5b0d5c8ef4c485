import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AnyField,
  assertPortableAsDeclared,
  defineTool,
  type Fields,
  field,
  inProcessProvider,
  NotPortableAsDeclared,
  portabilityDefects,
} from '../../../src/tools/index.js';
import { strictProblems } from '../../seam/strict-profile.js';
import { sampleTools } from '../fields/sample-tools.js';

describe('every defined tool is portable as declared', () => {
  it('holds for every tool these tests define, and for what their provider lists', async () => {
    expect(() => assertPortableAsDeclared(sampleTools)).not.toThrow();
    const listed = await inProcessProvider({ name: 'samples', tools: sampleTools }).listTools();
    expect(portabilityDefects(listed)).toEqual([]);
    for (const tool of sampleTools) expect(strictProblems(tool.parameters)).toEqual([]);
  });

  it('holds for any combination of field specs', () => {
    const leaf: fc.Arbitrary<AnyField> = fc.oneof(
      fc.constant(field.string({ maxLength: 10, enum: ['b', '', 'a'], default: 'a', description: 'Text.' })),
      fc.constant(field.string({ pattern: /^x+$/, minLength: 1, optional: true })),
      fc.constant(field.integer({ min: 0, max: 9, default: 3 })),
      fc.constant(field.number({ min: -1.5, optional: true })),
      fc.constant(field.boolean({ safe: true, description: 'Switch.' })),
      fc.constant(field.boolean()),
      fc.constant(field.consent()),
      fc.constant(field.json({ shape: 'list', optional: true })),
    );
    const fields = (item: fc.Arbitrary<AnyField>): fc.Arbitrary<Fields> =>
      fc.dictionary(fc.constantFrom('one', 'two_words', 'threeWords', 'Four'), item, {
        minKeys: 1,
        maxKeys: 4,
      });
    const spec: fc.Arbitrary<AnyField> = fc.letrec<{ node: AnyField }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        tie('node').map((items) => field.list(items, { maxItems: 3 })),
        fields(tie('node')).map((f) => field.object(f, { optional: true, description: 'Nested.' })),
      ),
    })).node;
    fc.assert(
      fc.property(fields(spec), (f) => {
        const tool = defineTool({
          name: 'generated',
          description: 'Generated.',
          fields: f,
          handler: () => '',
        });
        expect(portabilityDefects([tool])).toEqual([]);
        expect(strictProblems(tool.parameters)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('names the tool and the seam’s issue when a declared schema is not portable', () => {
    const raw = {
      name: 'loose_tool',
      parameters: { type: 'object', properties: { tags: { type: 'array' }, meta: { type: 'object' } } },
    };
    const defects = portabilityDefects([...sampleTools, raw]);
    expect(defects.map((d) => d.tool)).toEqual(['loose_tool']);
    expect(defects[0]?.issues.map((i) => i.path)).toEqual(['properties.tags', 'properties.meta']);
    expect(() => assertPortableAsDeclared([raw])).toThrow(NotPortableAsDeclared);
    expect(() => assertPortableAsDeclared([raw])).toThrow(
      /^1 tool would lean on the seam:\nloose_tool: properties\.tags: /,
    );
  });
});
