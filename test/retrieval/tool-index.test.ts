import { describe, expect, it } from 'vitest';
import { PostingStore } from '../../src/retrieval/posting-store.js';
import { Ranker } from '../../src/retrieval/ranker.js';
import { DEFAULT_RANKING } from '../../src/retrieval/ranking-settings.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { ScoreBuffer } from '../../src/retrieval/score-buffer.js';
import { terms, words } from '../../src/retrieval/tokenize.js';
import { ToolIndex } from '../../src/retrieval/tool-index.js';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { ToolTerms } from '../../src/retrieval/tool-terms.js';
import { TopK } from '../../src/retrieval/top-k.js';
import { serverTools, tool } from './fixtures.js';

const QUERIES = [
  'list the entries kept by the code host',
  'archive old pages in the wiki',
  'create a record for the docs service',
  'export reports filtered by owner',
  'fetch the weather forecast',
];

function rankedNames(index: ToolIndex, query: string): [string, number][] {
  const nameAt = (slot: number) => (index.toolAt(slot) as RetrievalTool).name;
  // Ties broken by name, as the retriever does: slots differ between the two indexes.
  const byName = (a: number, b: number) => (nameAt(a) < nameAt(b) ? -1 : nameAt(a) > nameAt(b) ? 1 : 0);
  return new Ranker(index, DEFAULT_RANKING, byName)
    .rank(query)
    .map((r) => [(index.toolAt(r.slot) as RetrievalTool).name, r.score] as [string, number])
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

function expectSameRankings(a: ToolIndex, b: ToolIndex): void {
  expect(a.size).toBe(b.size);
  for (const q of QUERIES) {
    const ra = rankedNames(a, q);
    const rb = rankedNames(b, q);
    expect(ra.map(([n]) => n)).toEqual(rb.map(([n]) => n));
    ra.forEach(([, s], i) => {
      expect(s).toBeCloseTo((rb[i] as [string, number])[1], 9);
    });
  }
}

describe('ToolIndex', () => {
  it('scores the same after adds, replacements and removals as an index built from scratch', () => {
    const first = [...serverTools('code-host', 18), ...serverTools('wiki', 12)];
    const changed = serverTools('docs', 10);
    // The incremental index is loaded in bulk, then changed tool by tool; the other is built anew.
    const incremental = new ToolIndex();
    incremental.upsertMany(first);
    // The wiki server drops five tools, renames one's description, and a new server arrives.
    for (const t of first.slice(18, 23)) incremental.remove(t.name);
    const renamed = {
      ...(first[25] as RetrievalTool),
      description: 'Fetch the weather forecast for a city.',
    };
    incremental.upsert(renamed);
    for (const t of changed) incremental.upsert(t);

    const final = [
      ...first.slice(0, 18),
      ...first.slice(23).map((t) => (t.name === renamed.name ? renamed : t)),
      ...changed,
    ];
    const rebuilt = new ToolIndex();
    for (const t of final) rebuilt.upsert(t);
    expectSameRankings(incremental, rebuilt);
    expect(incremental.remove('no_such_tool')).toBe(false);
  });

  it('stays equal to a fresh index through heavy churn (its shared term arrays compact and grow)', () => {
    const servers = ['code-host', 'wiki', 'docs', 'mail', 'calendar', 'crm'];
    const live = new Map<string, RetrievalTool>();
    const incremental = new ToolIndex();
    incremental.upsertMany(serverTools('code-host', 40));
    for (const t of serverTools('code-host', 40)) live.set(t.name, t);
    // Whole servers come and go, and single tools change their descriptions, many times over.
    for (let round = 0; round < 60; round += 1) {
      const name = servers[round % servers.length] as string;
      const tools = serverTools(name, 20 + (round % 7) * 5);
      if (round % 3 === 2) {
        for (const t of tools) if (incremental.remove(t.name)) live.delete(t.name);
      } else {
        for (const t of tools) {
          const changed = { ...t, description: `${t.description} Round ${round} of weather forecast.` };
          incremental.upsert(changed);
          live.set(t.name, changed);
        }
      }
    }
    const rebuilt = new ToolIndex();
    rebuilt.upsertMany(live.values());
    expectSameRankings(incremental, rebuilt);
  });

  it('a retriever updated with setTools answers as a fresh one', () => {
    const before = [...serverTools('code-host', 18), ...serverTools('wiki', 12)];
    const after = [
      ...serverTools('code-host', 10),
      ...serverTools('docs', 6),
      tool('weather_lookup', 'weather forecast'),
    ];
    const updated = new ToolRetriever(before, { k: 5 });
    updated.markUsed('mcp/code-host/list_entries_0');
    updated.setTools(after);
    const fresh = new ToolRetriever(after, { k: 5 });
    fresh.markUsed('mcp/code-host/list_entries_0');
    for (const q of QUERIES) {
      expect(updated.select(q).map((t) => t.name)).toEqual(fresh.select(q).map((t) => t.name));
      expect(updated.search(q)).toEqual(fresh.search(q));
    }
    expect(updated.size).toBe(after.length);
  });
});

describe('tokenizer', () => {
  it('splits identifiers at camelCase, acronyms, snake_case, slashes, dots and digits', () => {
    expect(words('getCryptocurrencyPrice')).toEqual(['get', 'cryptocurrency', 'price']);
    expect(words('HTTPServer.start_now')).toEqual(['http', 'server', 'start', 'now']);
    expect(words('mcp/code-host/list_v2')).toEqual(['mcp', 'code', 'host', 'list', 'v', '2']);
    expect(words('Café déjà vu')).toEqual(['café', 'déjà', 'vu']);
  });

  it('drops stop words and request filler, and stems the rest', () => {
    expect(terms('Can you please help me find the running meetings?')).toEqual(['find', 'run', 'meet']);
  });
});

describe('TopK', () => {
  it('agrees with a full sort (score, then tie-break) on random scores with many ties and zeros', () => {
    let seed = 3;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Ties go to the higher slot first, so the tie-break is visibly not slot order.
    const picker = new TopK((a, b) => b - a);
    const buf = new ScoreBuffer();
    for (let trial = 0; trial < 500; trial += 1) {
      buf.reset();
      const size = 1 + Math.floor(rnd() * 200);
      buf.ensure(size);
      for (let slot = 0; slot < size; slot += 1) buf.add(slot, Math.floor(rnd() * 15) - 2);
      const n = 1 + Math.floor(rnd() * (size + 5));
      const expected = Array.from({ length: size }, (_, slot) => ({
        slot,
        score: buf.scores[slot] as number,
      }))
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score || b.slot - a.slot)
        .slice(0, n);
      expect(picker.select(buf, n)).toEqual(expected);
    }
  });
});

describe('PostingStore', () => {
  it('agrees with a plain list per term through a bulk load and random adds and removals', () => {
    let seed = 11;
    const rnd = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const store = new PostingStore();
    const ids = Array.from({ length: 30 }, () => store.newTerm());
    const model = new Map<number, Map<number, number>>(ids.map((id) => [id, new Map()]));
    const held = new ToolTerms(5);
    for (let slot = 0; slot < 60; slot += 1) {
      const terms = [...new Set(Array.from({ length: 1 + rnd(8) }, () => ids[rnd(ids.length)] as number))];
      held.set(slot, terms, new Uint16Array(terms.length * 5).fill(1), new Float64Array(5));
      for (const [at, id] of terms.entries()) model.get(id)?.set(slot, at);
    }
    store.load(60, held);
    for (let step = 0; step < 2000; step += 1) {
      const id = rnd(ids.length + 3) < ids.length ? (ids[rnd(ids.length)] as number) : store.newTerm();
      if (!model.has(id)) model.set(id, new Map());
      const postings = model.get(id) as Map<number, number>;
      const slot = rnd(80);
      if (postings.has(slot)) {
        store.remove(id, slot);
        postings.delete(slot);
      } else {
        store.add(id, slot, step);
        postings.set(slot, step);
      }
    }
    for (const [id, postings] of model) {
      const seen = new Map<number, number>();
      store.forEach(id, (slot, at) => seen.set(slot, at));
      expect(seen).toEqual(postings);
      expect(store.df(id)).toBe(postings.size);
    }
  });
});
