import { describe, expect, it } from 'vitest';
import { admitTools, MAX_OFFERED_TOOLS } from '../../src/retrieval/admit-tools.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { schemaSize } from '../../src/retrieval/schema-size.js';

/** A tool whose wire definition is about `chars` characters longer than an empty one. */
function tool(name: string, chars = 0): RetrievalTool {
  return { name, description: 'x'.repeat(chars), parameters: { type: 'object', properties: {} } };
}

const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => tool(`${prefix}${i}`));
const none: RetrievalTool[] = [];

describe('admitTools', () => {
  it('takes core, sticky, hinted, then ranked tools until k are chosen, each once', () => {
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((n) => tool(n)) as RetrievalTool[];
    const chosen = admitTools(
      {
        core: [a as RetrievalTool],
        sticky: [b as RetrievalTool],
        hinted: [c as RetrievalTool],
        ranked: [b, c, d, e] as RetrievalTool[],
      },
      4,
      undefined,
    );
    expect([...chosen]).toEqual(['a', 'b', 'c', 'd']);
  });

  it('counts hinted tools against k, so a hint naming hundreds of tools offers k', () => {
    const chosen = admitTools(
      { core: [tool('core')], sticky: none, hinted: many('file_op_', 300), ranked: none },
      48,
      undefined,
    );
    expect(chosen.size).toBe(48);
    expect(chosen.has('file_op_46')).toBe(true);
    expect(chosen.has('file_op_47')).toBe(false);
  });

  it('lets sticky tools pass k, but never past the most one request carries', () => {
    const chosen = admitTools(
      { core: [tool('core')], sticky: many('used_', 150), hinted: none, ranked: many('r', 5) },
      48,
      undefined,
    );
    expect(chosen.size).toBe(1 + MAX_OFFERED_TOOLS);
    expect(chosen.has('r0')).toBe(false);
  });

  it('fills the room the ranking leaves with what was offered last time', () => {
    const chosen = admitTools(
      {
        core: none,
        sticky: none,
        hinted: none,
        ranked: [tool('r0')],
        fallback: [tool('r0'), tool('last1'), tool('last2')],
      },
      2,
      undefined,
    );
    expect([...chosen]).toEqual(['r0', 'last1']);
  });

  it('admits core tools over the budget, and skips any other tool that would overrun it', () => {
    const core = tool('core', 300);
    const big = tool('big', 500);
    const small = tool('small', 10);
    const ranked = [tool('huge', 2000), tool('fits', 10)];
    const budget = schemaSize(core) + schemaSize(small) + schemaSize(ranked[1] as RetrievalTool);
    const chosen = admitTools({ core: [core], sticky: [big, small], hinted: none, ranked }, 48, budget);
    expect([...chosen]).toEqual(['core', 'small', 'fits']);
    expect([...admitTools({ core: [core], sticky: none, hinted: none, ranked: none }, 48, 1)]).toEqual([
      'core',
    ]);
  });

  it('admits nothing ranked when the core tools already fill k', () => {
    const chosen = admitTools(
      { core: [tool('a'), tool('b')], sticky: none, hinted: none, ranked: [tool('c')] },
      1,
      undefined,
    );
    expect([...chosen]).toEqual(['a', 'b']);
  });
});
