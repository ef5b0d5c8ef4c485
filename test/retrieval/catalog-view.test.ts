import { describe, expect, it } from 'vitest';
import { CatalogView } from '../../src/retrieval/catalog-view.js';
import { ToolCatalog } from '../../src/retrieval/tool-catalog.js';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { names, numbered, tool } from './fixtures.js';

const requests = [
  'a query about thing 3',
  'fetch https://example.com/a',
  'now shorter',
  'thing 42 and thing 7',
];

describe('a view of a shared catalog', () => {
  it('selects as a retriever of its own would, turn after turn', () => {
    const tools = [...numbered(100), tool('web_fetch', 'fetch a page')];
    const own = new ToolRetriever(tools, { k: 5 });
    const shared = new ToolCatalog(tools, { k: 5 });
    const view = new CatalogView(shared);
    new CatalogView(shared).select('something else entirely');
    for (const request of requests) {
      expect(names(view.select(request))).toEqual(names(own.select(request)));
      expect([...view.lastRelevance]).toEqual([...own.lastRelevance]);
      expect(view.search(request)).toEqual(own.search(request));
    }
  });

  it('offers, lists and finds only the tools it sees, and keeps its own sticky tools', () => {
    const shared = new ToolCatalog([...numbered(100), tool('odd_one', 'vacuum the store')], { k: 5 });
    const evens = new CatalogView(shared, (name) => name === 'odd_one' || Number(name.slice(5)) % 2 === 0);
    const all = new CatalogView(shared);
    expect(evens.size).toBe(51);
    expect(evens.get('tool_3')).toBeUndefined();
    for (const request of requests) {
      for (const name of names(evens.select(request))) expect(evens.get(name)).toBeDefined();
    }
    expect(names(evens.search('thing 3')).every((name) => evens.get(name) !== undefined)).toBe(true);
    evens.markUsed('odd_one');
    evens.markUsed('tool_3');
    expect([...evens.sticky]).toEqual(['odd_one']);
    expect(names(evens.select('write a poem about the sea'))).toContain('odd_one');
    expect(all.sticky.size).toBe(0);
  });
});
