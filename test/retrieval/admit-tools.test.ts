import { describe, expect, it } from 'vitest';
import { admitTools } from '../../src/retrieval/admit-tools.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { schemaSize } from '../../src/retrieval/schema-size.js';

/** A tool whose wire definition is about `chars` characters long. */
function tool(name: string, chars = 0): RetrievalTool {
  return { name, description: 'x'.repeat(chars), parameters: { type: 'object', properties: {} } };
}

describe('admitTools', () => {
  it('takes core, then preferred, then ranked tools until k are chosen, each once', () => {
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((n) => tool(n)) as RetrievalTool[];
    const chosen = admitTools(
      {
        core: [a as RetrievalTool],
        preferred: [b as RetrievalTool],
        ranked: [b, c, d, e] as RetrievalTool[],
      },
      3,
      undefined,
    );
    expect([...chosen]).toEqual(['a', 'b', 'c']);
  });

  it('admits core tools over the budget, and skips any other tool that would overrun it', () => {
    const core = tool('core', 300);
    const big = tool('big', 500);
    const small = tool('small', 10);
    const ranked = [tool('huge', 2000), tool('fits', 10)];
    const budget = schemaSize(core) + schemaSize(small) + schemaSize(ranked[1] as RetrievalTool);
    const chosen = admitTools({ core: [core], preferred: [big, small], ranked }, 48, budget);
    expect([...chosen]).toEqual(['core', 'small', 'fits']);
    expect([...admitTools({ core: [core], preferred: [], ranked: [] }, 48, 1)]).toEqual(['core']);
  });

  it('admits nothing ranked when the core tools already fill k', () => {
    const chosen = admitTools(
      { core: [tool('a'), tool('b')], preferred: [], ranked: [tool('c')] },
      1,
      undefined,
    );
    expect([...chosen]).toEqual(['a', 'b']);
  });
});
