import { describe, expect, it } from 'vitest';
import { CatalogView } from '../../src/retrieval/catalog-view.js';
import { ToolCatalog } from '../../src/retrieval/tool-catalog.js';
import { names, numbered, tool } from './fixtures.js';

const queries = ['a query about thing 3', 'fetch https://example.com/a', 'thing 42 and thing 7', 'vacuum'];

/** What a catalog answers for each query, through a view of its own that offers 5 tools a request. */
function answers(catalog: ToolCatalog) {
  const view = new CatalogView(catalog);
  return queries.map((q) => ({
    selected: names(view.select(q)),
    relevance: [...view.lastRelevance],
    found: view.search(q),
  }));
}

/** Changes made to a catalog: a tool replaced, one removed, one added, then the list set anew. */
function change(catalog: ToolCatalog): void {
  catalog.upsert(tool('tool_5', 'vacuum the store and fetch its pages'));
  catalog.remove('tool_7');
  catalog.upsert(tool('web_fetch', 'fetch a page from the web'));
  const kept = [...catalog.orderedTools()].filter((t) => t.name !== 'tool_11');
  catalog.setTools([...kept, tool('odd_one', 'vacuum thing 3 twice')]);
}

describe('a shared catalog of tools', () => {
  it('reads no tool into its index while every tool fits a request, and does at its first ranking', () => {
    const catalog = new ToolCatalog(numbered(12), { k: 48 });
    const view = new CatalogView(catalog);
    expect(names(view.select('a query about thing 3'))).toEqual(names(numbered(12)));
    expect(catalog.get('tool_3')?.description).toBe('does thing 3');
    expect(catalog.size).toBe(12);
    expect(catalog.indexed).toBe(false);

    expect(names(view.search('thing 3', { limit: 1 }))).toEqual(['tool_3']);
    expect(catalog.indexed).toBe(true);
  });

  it('ranks alike whether it was changed before its index was filled, after, or never', () => {
    const late = new ToolCatalog(numbered(100), { k: 5 });
    change(late);
    expect(late.indexed).toBe(false);

    const early = new ToolCatalog(numbered(100), { k: 5 });
    new CatalogView(early).select('anything at all');
    expect(early.indexed).toBe(true);
    change(early);

    const fresh = new ToolCatalog(late.orderedTools(), { k: 5 });
    expect(names(fresh.orderedTools())).toEqual(names(early.orderedTools()));
    const expected = answers(fresh);
    expect(answers(late)).toEqual(expected);
    expect(answers(early)).toEqual(expected);
    expect(expected[3]?.found[0]?.name).toBe('odd_one');
  });
});
