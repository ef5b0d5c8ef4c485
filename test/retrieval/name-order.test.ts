import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byName } from '../../src/retrieval/name-order.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { names, server, tool } from './fixtures.js';

/** What `byName` must give: a stable sort by name. */
function sorted(tools: readonly RetrievalTool[]): string[] {
  return names([...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
}

describe('byName', () => {
  it('sorts any subset of a group, turn after turn, as a fresh sort would', () => {
    const g = server('mcp/shuffled');
    const all = ['delta', 'alpha', 'echo', 'charlie', 'bravo', 'golf', 'foxtrot'].map((n) => tool(n, 'x', g));
    fc.assert(
      fc.property(fc.array(fc.shuffledSubarray(all), { maxLength: 8 }), (turns) => {
        for (const subset of turns) expect(names(byName(g, [...subset]))).toEqual(sorted(subset));
      }),
    );
  });

  it('follows a tool replaced by one of the same name, and tools added or gone', () => {
    const g = server('mcp/changing');
    const a = tool('a', 'old', g);
    const b = tool('b', 'x', g);
    const c = tool('c', 'x', g);
    expect(byName(g, [c, a, b])).toEqual([a, b, c]);
    const a2 = tool('a', 'new', g);
    expect(byName(g, [c, a2, b])).toEqual([a2, b, c]);
    const d = tool('aa', 'x', g);
    expect(byName(g, [d, c, a2])).toEqual([a2, d, c]);
    expect(byName(g, [b])).toEqual([b]);
  });

  it('keeps tools of the same name, or the same tool twice, in their given order', () => {
    const g = server('mcp/twins');
    const first = tool('same', 'first', g);
    const second = tool('same', 'second', g);
    const other = tool('other', 'x', g);
    expect(byName(g, [first, other])).toEqual([other, first]);
    expect(byName(g, [second, first, other])).toEqual([other, second, first]);
    expect(byName(g, [first, other, first])).toEqual([other, first, first]);
  });
});
