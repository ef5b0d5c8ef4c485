import { describe, expect, it } from 'vitest';
import { CATALOG_CHARS, catalog, LEFT_OUT_PREFIX } from '../../src/retrieval/catalog.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { names, numbered, own, server, serverTools, tool } from './fixtures.js';

/** Five platform groups shaped like a personal assistant's own tools. */
function ownGroups(): RetrievalTool[] {
  const spec: [string, string, string, number][] = [
    ['platform-automation', 'Create and manage automations in chat', 'automation', 12],
    ['platform-tasks', 'Plan and track tasks', 'task', 9],
    ['platform-workflows', 'Author and run multi-step workflows', 'workflow', 23],
    ['platform-knowledge', 'Keep and look up notes', 'knowledge', 9],
    ['platform-memory', 'Remember facts about the user', 'memory', 6],
  ];
  return spec.flatMap(([key, purpose, stem, n]) =>
    Array.from({ length: n }, (_, i) =>
      tool(
        `${stem}_${['list', 'create', 'update', 'delete', 'get', 'run'][i % 6]}_${i}`,
        `Work with ${stem} item ${i}.`,
        own(key, purpose),
      ),
    ),
  );
}

function servers(count: number, size: number): RetrievalTool[] {
  return Array.from({ length: count }, (_, s) =>
    serverTools(`server-${String(s).padStart(2, '0')}`, size),
  ).flat();
}

function lastLine(text: string): string {
  return text.split('\n').at(-1) ?? '';
}

describe('catalog', () => {
  it('lists groups with their tools and leaves out the offered ones', () => {
    const tools = [
      ...numbered(30, 'a_tool_', server('alpha')),
      ...numbered(30, 'b_tool_', server('beta')),
    ].map((t) => ({
      ...t,
      description: t.description.replace('thing ', ''),
    }));
    const deferred = tools.filter((t) => t.name !== 'a_tool_0' && t.name !== 'b_tool_0');
    const text = catalog(deferred);
    expect(text).toContain('[alpha]');
    expect(text).toContain('[beta]');
    expect(text).toContain('a_tool_5: does 5');
    expect(text).not.toMatch(/\ba_tool_0\b/);
    expect(text).not.toMatch(/\bb_tool_0\b/);
  });

  it('is empty when nothing is deferred', () => {
    expect(catalog([])).toBe('');
  });

  it('stays within a small room and still points at tool_search', () => {
    const deferred = Array.from({ length: 20 }, (_, s) =>
      Array.from({ length: 30 }, (_, i) => tool(`p${s}_tool_${i}`, 'x'.repeat(80), server(`provider-${s}`))),
    ).flat();
    const text = catalog(deferred, 1500);
    expect(text.length).toBeLessThanOrEqual(1500);
    expect(text).toContain('tool_search');
  });

  it('never exceeds the room, whatever its size', () => {
    const deferred = Array.from({ length: 22 }, (_, g) =>
      Array.from({ length: 25 }, (_, i) =>
        tool(
          `g${g}_tool_${i}`,
          `${'y'.repeat(90)} ${i}`.padEnd(100, 'z'),
          g % 2 ? server(`mcp/srv-${g}`) : server(`app-${g}`),
        ),
      ),
    ).flat();
    for (const room of [6000, 3000, 1500, 400, 60, 10]) {
      expect(catalog(deferred, room).length).toBeLessThanOrEqual(room);
    }
  });

  it('names every platform tool at 6,000 and the platform groups even in small rooms', () => {
    const deferred = [...ownGroups(), ...servers(8, 20)];
    for (const room of [6000, 2500, 900, 300, 40]) {
      const text = catalog(deferred, room);
      expect(text.length).toBeLessThanOrEqual(room);
      if (room >= 900) {
        // Exact bookkeeping: the text is filled up to the room, never cut by the safety net.
        expect(lastLine(text).startsWith(LEFT_OUT_PREFIX)).toBe(true);
        expect(text.endsWith('…')).toBe(false);
        expect(text.length).toBeGreaterThan(room - 110);
      }
      if (room >= 900) {
        for (const key of ['platform-automation', 'platform-workflows', 'platform-memory'])
          expect(text).toContain(key);
      }
      if (room === 300) {
        // Too small for every platform group: one is listed, the last line names others first.
        expect(text).toMatch(/^\[platform-/);
        expect(lastLine(text)).toMatch(/^\[not listed[^\]]*\] platform-\S+ \(\d+ tools\), /);
      }
    }
    const full = catalog(deferred, CATALOG_CHARS);
    for (const t of ownGroups()) expect(full).toMatch(new RegExp(`(^|[ ,])${t.name}(:|,|$)`, 'm'));
    expect(full).toContain('[platform-automation] Create and manage automations in chat');
    expect(full).toMatch(/^\[platform-tasks\] \S/m);
  });

  it('shares the room evenly between servers and names what it left out', () => {
    const text = catalog(servers(10, 30));
    const counts = Array.from({ length: 10 }, (_, s) => {
      const key = `mcp/server-${String(s).padStart(2, '0')}/`;
      return text.split('\n').filter((l) => l.startsWith(`- ${key}`)).length;
    });
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    const last = lastLine(text);
    expect(last.startsWith(LEFT_OUT_PREFIX)).toBe(true);
    counts.forEach((n, s) => {
      expect(last).toContain(`mcp/server-${String(s).padStart(2, '0')} (+${30 - n} more)`);
    });
  });

  it("goes on to a server's shorter tools when its first one's line does not fit", () => {
    const notes = server('mcp/notes');
    const serverSide: RetrievalTool[] = [
      { name: 'aaa_long', description: 'L'.repeat(99), group: notes },
      ...Array.from({ length: 5 }, (_, i) => ({ name: `b${i}`, description: 'short', group: notes })),
    ];
    // one own group that leaves about 120 characters: room for short lines, not for the long one
    for (const width of [5820, 5870]) {
      const text = catalog([
        { name: 'n'.repeat(width), description: '', group: own('files') },
        ...serverSide,
      ]);
      expect(text.length).toBeLessThanOrEqual(CATALOG_CHARS);
      expect(text).not.toContain('- aaa_long');
      expect(text).toContain('- b0: short');
    }
  });

  it('describes the tools the request is about first, whatever their group', () => {
    const asked = ['list', 'close', 'open', 'assign', 'label'].map((verb) =>
      tool(
        `mcp/issue-desk/zz_${verb}_issues`,
        `${verb} the issues in the issue desk`,
        server('mcp/issue-desk'),
      ),
    );
    const filler = Array.from({ length: 15 }, (_, i) =>
      tool(`mcp/issue-desk/aa_filler_${i}`, `unrelated chore ${i}`, server('mcp/issue-desk')),
    );
    const all = [...ownGroups(), ...servers(8, 20), ...filler, ...asked];
    const r = new ToolRetriever(all, { k: 2 });
    const picked = new Set(names(r.select('list the open issues in the issue desk')));
    const deferred = all.filter((t) => !picked.has(t.name));
    const deferredAsked = asked.filter((t) => !picked.has(t.name));
    expect(deferredAsked).toHaveLength(3);
    const text = catalog(deferred, CATALOG_CHARS, { relevance: r.lastRelevance });
    expect(text.length).toBeLessThanOrEqual(CATALOG_CHARS);
    for (const t of deferredAsked) expect(text).toContain(`- ${t.name}: `);
    for (const t of ownGroups()) expect(text).toMatch(new RegExp(`(^|[ ,])${t.name}(:|,|$)`, 'm'));
  });

  it('lists the platform groups first even when hundreds of groups are left out', () => {
    // 300 servers: naming every one on the last line would take the whole room, so nothing was
    // listed at all, not even the platform's own groups, and the line itself was cut short.
    const deferred = [...ownGroups(), ...servers(300, 3)];
    const text = catalog(deferred);
    expect(text.length).toBeLessThanOrEqual(CATALOG_CHARS);
    for (const t of ownGroups()) expect(text).toMatch(new RegExp(`(^|[ ,])${t.name}(:|,|$)`, 'm'));
    expect(text).toContain('[mcp/server-00]');
    const last = lastLine(text);
    expect(last.startsWith(LEFT_OUT_PREFIX)).toBe(true);
    // The line names what room allows and counts the rest, rather than stopping mid-list.
    const counted = /, and (\d+) more groups$/.exec(last);
    expect(counted).not.toBeNull();
    const named = last.slice(LEFT_OUT_PREFIX.length).split(', ').slice(0, -1);
    for (const entry of named) expect(entry).toMatch(/^mcp\/server-\d+ \((\d+ tools|\+\d+ more)\)$/);
    const described = new Map<string, number>();
    for (const l of text.split('\n')) {
      const key = /^- (mcp\/server-\d+)\//.exec(l)?.[1];
      if (key) described.set(key, (described.get(key) ?? 0) + 1);
    }
    const whole = [...described.values()].filter((n) => n === 3).length;
    expect(whole + named.length + Number(counted?.[1])).toBe(300);
  });

  it('ends with the left-out line when a request over a big catalog cannot list everything', () => {
    const deferred = [...ownGroups(), ...servers(6, 18)];
    const text = catalog(deferred);
    expect(lastLine(text).startsWith('[not listed here for room; tool_search(')).toBe(true);
    expect(text).toContain('[mcp/server-00]');
  });
});

describe('catalog headers', () => {
  it('keeps a group’s purpose on its header line, cut to one line', () => {
    const g = own('notes', `Keep notes\nand find them again. ${'More words. '.repeat(20)}`);
    const text = catalog([tool('note_add', 'Add a note.', g), tool('note_find', 'Find notes.', g)]);
    const header = text.split('\n')[0] ?? '';
    expect(header.startsWith('[notes] Keep notes and find them again.')).toBe(true);
    expect(header.length).toBeLessThanOrEqual('[notes] '.length + 100);
    expect(text).toContain('note_add');
  });
});
