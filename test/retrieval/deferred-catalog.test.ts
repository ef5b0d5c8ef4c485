import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolGroup } from '../../src/core/tool.js';
import { catalog } from '../../src/retrieval/catalog.js';
import { CatalogView } from '../../src/retrieval/catalog-view.js';
import { MinTree } from '../../src/retrieval/min-tree.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { ToolCatalog } from '../../src/retrieval/tool-catalog.js';
import { own, server, serverTools, tool } from './fixtures.js';

/** What the view's catalog must equal: the catalog of every tool it sees but the shown ones. */
function expected(
  view: CatalogView,
  shown: ReadonlySet<string>,
  relevance: ReadonlyMap<string, number>,
  room: number,
) {
  return catalog(
    view.tools().filter((t) => !shown.has(t.name)),
    room,
    { relevance },
  );
}

const groups: ToolGroup[] = [
  own('platform-files', 'Read and write files'),
  own('platform-memory'),
  server('mcp/alpha', 'The alpha service'),
  server('mcp/beta'),
  server('app-gamma', 'x '.repeat(80)),
];

/** A tool drawn from a few groups, with a name and a description of any length. */
const drawnTool = fc.record({
  group: fc.option(fc.constantFrom(...groups), { nil: undefined }),
  stem: fc.string({ minLength: 1, maxLength: 30 }),
  words: fc.nat({ max: 40 }),
});

describe('the deferred catalog of a view', () => {
  it('equals the catalog of the tools it sees but the shown ones, whatever the tools, room and relevance', () => {
    fc.assert(
      fc.property(
        fc.array(drawnTool, { minLength: 1, maxLength: 120 }),
        fc.array(fc.tuple(fc.nat(), fc.double({ min: -0.5, max: 2, noNaN: true })), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.oneof(fc.constant(6000), fc.integer({ min: 1, max: 6000 }), fc.integer({ min: 1, max: 400 })),
        fc.option(fc.nat({ max: 4 }), { nil: undefined }),
        (drawn, rel, shownAt, room, modulo) => {
          const tools = drawn.map((d, i) => tool(`${d.stem}_${i}`, 'word '.repeat(d.words).trim(), d.group));
          const at = (i: number): RetrievalTool => tools[i % tools.length] as RetrievalTool;
          const relevance = new Map(rel.map(([i, r]) => [at(i).name, r]));
          const shown = new Set(shownAt.map((i) => at(i).name));
          const visible =
            modulo === undefined ? undefined : (name: string) => name.length % (modulo + 2) !== 0;
          const view = new CatalogView(new ToolCatalog(tools), visible);
          expect(view.deferredCatalog(shown, relevance, room)).toBe(expected(view, shown, relevance, room));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('fills as before from one server of thousands of tools and from many small ones', () => {
    const big = [...serverTools('big', 3000), tool('files_read', 'Read a file.', own('platform-files'))];
    const many = Array.from({ length: 200 }, (_, s) => serverTools(`s${s}`, 7)).flat();
    for (const tools of [big, many]) {
      const view = new CatalogView(new ToolCatalog(tools));
      for (const request of ['list the records by owner', 'archive the notes and export pages']) {
        const shown = new Set(view.select(request).map((t) => t.name));
        for (const room of [6000, 2500, 300]) {
          const text = view.deferredCatalog(shown, view.lastRelevance, room);
          expect(text).toBe(expected(view, shown, view.lastRelevance, room));
        }
      }
    }
  });

  it('keeps to a view made after the catalog changed', () => {
    const shared = new ToolCatalog(serverTools('one', 50));
    const view = new CatalogView(shared);
    const before = view.deferredCatalog(new Set(), new Map());
    shared.upsert(tool('mcp/one/zz_new', 'A tool added later.', server('mcp/one')));
    const after = view.deferredCatalog(new Set(), new Map());
    expect(after).not.toBe(before);
    expect(after).toBe(expected(view, new Set(), new Map(), 6000));
  });
});

describe('MinTree', () => {
  it('finds the first value at most a limit as a walk would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 70 }),
        fc.nat({ max: 80 }),
        fc.integer({ min: -1, max: 60 }),
        (values, from, limit) => {
          const walk = values.findIndex((v, i) => i >= from && v <= limit);
          expect(new MinTree(values).firstAtMost(from, limit)).toBe(walk);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
