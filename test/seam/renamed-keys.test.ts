import { describe, expect, it } from 'vitest';
import {
  conformParameters,
  decodeLiftedArguments,
  PROPERTY_KEY_PATTERN,
  restoreDeclaredKeys,
} from '../../src/seam/index.js';
import { strictProblems } from './strict-profile.js';
import { deepFreeze } from './support.js';

describe('argument names some provider refuses', () => {
  it('are offered under distinct safe keys at the top level, required ones too, each rename a repair', () => {
    const long = 'k'.repeat(70);
    const declared = deepFreeze({
      type: 'object',
      properties: {
        $top: { type: 'integer' },
        'tags[]': { type: 'array', items: { type: 'string' } },
        'a b': { type: 'string' },
        a_b: { type: 'string' },
        [long]: { type: 'string' },
        '': { type: 'boolean' },
      },
      required: ['a b', '$top'],
    });
    const result = conformParameters(declared);
    const offered = result.parameters as { properties: Record<string, unknown>; required: string[] };
    const keys = Object.keys(offered.properties);
    expect(keys).toHaveLength(6);
    for (const key of keys) expect(key).toMatch(PROPERTY_KEY_PATTERN);
    expect(keys.slice(0, 4)).toEqual(['_top', 'tags__', expect.stringMatching(/^a_b_[0-9a-f]{8}$/), 'a_b']);
    expect(offered.required).toEqual([keys[2], '_top']);
    expect(strictProblems(offered)).toEqual([]);
    expect(result.verdict).toBe('repaired');
    expect(result.renamed.map((r) => r.declared)).toEqual(['$top', 'tags[]', 'a b', long, '']);
    expect(result.issues.filter((i) => i.rule === 'property_key_invalid')).toHaveLength(5);
  });

  it('tell the model the declared name, which a key in another script keeps only there', () => {
    const declared = deepFreeze({
      type: 'object',
      properties: {
        名前: { type: 'string' },
        住所: { type: 'string', description: 'Where the parcel goes' },
        $top: { type: 'integer', description: 'How many to list.' },
      },
      required: ['名前'],
    });
    const result = conformParameters(declared);
    const offered = result.parameters as { properties: Record<string, { description?: string }> };
    const [name, address, top] = result.renamed.map((r) => offered.properties[r.wire]?.description);
    expect(name).toBe('Declared as "名前".');
    expect(address).toBe('Where the parcel goes. Declared as "住所".');
    expect(top).toBe('How many to list. Declared as "$top".');
    expect(strictProblems(offered)).toEqual([]);
    // Either name reaches the tool.
    expect(restoreDeclaredKeys({ __: 'Aiko' }, result.renamed)).toEqual({ 名前: 'Aiko' });
    expect(restoreDeclaredKeys({ 名前: 'Aiko' }, result.renamed)).toEqual({ 名前: 'Aiko' });
  });

  it('get their declared names back on a call; a declared name sent as it is stays', () => {
    const { renamed } = conformParameters({
      type: 'object',
      properties: { $top: { type: 'integer' }, q: { type: 'string' } },
    });
    const sent = deepFreeze({ _top: 5, q: 'x' });
    expect(restoreDeclaredKeys(sent, renamed)).toEqual({ $top: 5, q: 'x' });
    const already = { $top: 5 };
    expect(restoreDeclaredKeys(already, renamed)).toBe(already);
  });

  it('below the top level, make their object travel as JSON text that keeps every key', () => {
    const result = conformParameters({
      type: 'object',
      properties: {
        filter: { type: 'object', properties: { 'created at': { type: 'string' } } },
      },
    });
    expect(result.verdict).toBe('lifted');
    expect(result.lifted.map((l) => l.path)).toEqual(['filter']);
    expect(strictProblems(result.parameters as object)).toEqual([]);
    const decoded = decodeLiftedArguments({ filter: '{"created at":"today"}' }, result.lifted);
    expect(decoded).toEqual({ ok: true, arguments: { filter: { 'created at': 'today' } } });
  });
});
