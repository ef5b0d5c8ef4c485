import { describe, expect, it } from 'vitest';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { names, numbered, tool } from './fixtures.js';

/** 3,000 tools whose names all hold "task", as one large app's might: a hint names every one. */
const BOARD = Array.from({ length: 3000 }, (_, i) =>
  tool(`task_item_${String(i).padStart(4, '0')}`, `Keeps entry ${i} of the board.`),
);

describe('a hint that names thousands of tools', () => {
  it('offers k of them in name order when no word of the request ranks one', () => {
    const r = new ToolRetriever([...numbered(200), ...BOARD], { k: 10 });
    // "backlog" points at task tools, and no tool has the word.
    const picked = names(r.select('what is on my backlog'));
    expect(picked).toEqual(names(BOARD.slice(0, 10)));
  });

  it('offers the one the words rank first among them, and lifts no more than it can offer', () => {
    // Last by name of 3,001 hinted tools: only its words can bring it into the 10 offered.
    const archive = tool('task_zz_archive_done', 'Archives the finished entries of the board.');
    const r = new ToolRetriever([...numbered(200), ...BOARD, archive], { k: 10 });
    const picked = names(r.select('archive my finished tasks'));
    expect(picked).toContain('task_zz_archive_done');
    expect(picked).toHaveLength(10);
    // Each hinted tool kept is lifted above the ranking (relevance above 1); the other 2,991 are not,
    // so the catalog lays out a few dozen relevant tools, not three thousand.
    const lifted = [...r.lastRelevance.values()].filter((v) => v > 1);
    expect(lifted).toHaveLength(10);
    expect(r.lastRelevance.size).toBeLessThan(100);
    expect(r.deferredCatalog(new Set(picked)).length).toBeLessThanOrEqual(6000);
  });

  it('reads on past those it lifts when a schema budget skips them', () => {
    const big = { type: 'object', properties: { note: { type: 'string', description: 'x'.repeat(3000) } } };
    // The first 50 by name carry schemas too large for the budget (more than the 4k = 40 it lifts):
    // the next ones are offered instead.
    const board = BOARD.map((t, i) => (i < 50 ? { ...t, parameters: big } : t));
    const r = new ToolRetriever([...numbered(200), ...board], { k: 10 });
    const picked = names(r.select('what is on my backlog', { budgetChars: 2000 }));
    // As many of the next ones as the budget holds.
    expect(picked.length).toBeGreaterThan(5);
    expect(picked).toEqual(names(BOARD.slice(50, 50 + picked.length)));
  });
});
