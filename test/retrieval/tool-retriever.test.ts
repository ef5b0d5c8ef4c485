import { describe, expect, it } from 'vitest';
import { MAX_OFFERED_TOOLS } from '../../src/retrieval/admit-tools.js';
import { CATALOG_CHARS, catalog } from '../../src/retrieval/catalog.js';
import { isCore } from '../../src/retrieval/core-tools.js';
import { schemaBudgetChars, schemaSize } from '../../src/retrieval/schema-size.js';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { MAX_EMBEDDED_TEXT } from '../../src/retrieval/tool-vectors.js';
import { names, numbered, own, server, serverTools, tool } from './fixtures.js';

describe('ToolRetriever.select', () => {
  it('offers every tool when the catalog fits in K', () => {
    const r = new ToolRetriever(numbered(10));
    expect(names(r.select('anything at all'))).toEqual(names(numbered(10)));
    expect(r.reduced()).toBe(false);
    expect(r.hiddenCount).toBe(0);
  });

  it('offers at most K tools and finds the one the request is about', () => {
    const weather = tool('weather_lookup', 'get the current weather forecast');
    const r = new ToolRetriever([...numbered(100), weather], { k: 20 });
    const picked = names(r.select('what is the weather forecast today'));
    expect(picked.length).toBeLessThanOrEqual(20);
    expect(picked).toContain('weather_lookup');
    expect(r.reduced()).toBe(true);
  });

  it('always offers core tools, by name and by flag, whatever the request', () => {
    const r = new ToolRetriever(
      [
        ...numbered(100),
        tool('ask_user', 'ask the person a question'),
        tool('tool_result_get', 'read a stored result'),
        tool('zzz_special', 'a special thing', undefined, { core: true }),
      ],
      { k: 15 },
    );
    const picked = names(r.select('unrelated query about databases'));
    expect(picked).toEqual(expect.arrayContaining(['ask_user', 'tool_result_get', 'zzz_special']));
  });

  it('offers the file, shell and meta primitives among 80 server tools', () => {
    const primitives = [
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'grep',
      'glob',
      'list_dir',
      'tool_search',
    ];
    const tools = [
      ...primitives.map((n) => tool(n, `the ${n} primitive`, own('files'))),
      ...Array.from({ length: 80 }, (_, i) => tool(`mcp__toolbox__Tool${i}`, `toolbox tool number ${i}`)),
    ];
    const picked = names(new ToolRetriever(tools, { k: 20 }).select('write a haiku about the ocean'));
    expect(picked).toEqual(expect.arrayContaining(primitives));
  });

  it('knows core by whole names and name parts, never by loose words', () => {
    for (const n of [
      'tool_search',
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'grep',
      'glob',
      'list_dir',
    ]) {
      expect(isCore({ name: n })).toBe(true);
    }
    expect(isCore({ name: 'mcp__helper__ask_user_politely' })).toBe(true);
    for (const n of ['task_create', 'task_list', 'mcp__toolbox__ReadDocuments', 'runner', 'ask']) {
      expect(isCore({ name: n })).toBe(false);
    }
  });

  it('offers fetch tools for a request holding a URL', () => {
    const r = new ToolRetriever([...numbered(100), tool('web_fetch', 'fetch a page')], { k: 10 });
    expect(names(r.select('please look at https://example.com/page'))).toContain('web_fetch');
  });

  it('offers the shell tool for a request to run a command', () => {
    const tools = [
      ...Array.from({ length: 80 }, (_, i) => tool(`mcp__x__T${i}`, `tool ${i}`)),
      tool('some_exec_tool', 'runs a shell command in a sandbox'),
    ];
    const r = new ToolRetriever(tools, { k: 5 });
    expect(names(r.select('please run the command npm test in the terminal'))).toContain('some_exec_tool');
  });

  it('offers file tools for a request naming a path', () => {
    const tools = [...numbered(60), tool('file_info', 'size and dates of an entry on disk')];
    expect(names(new ToolRetriever(tools, { k: 5 }).select('how big is ./logs/app.log'))).toContain(
      'file_info',
    );
  });

  it('keeps offering a tool once this session called it (sticky), and ignores unknown names', () => {
    const r = new ToolRetriever([...numbered(100), tool('obscure_db_tool', 'vacuum the store')], { k: 10 });
    r.markUsed('obscure_db_tool');
    r.markUsed('not_a_tool');
    expect(r.sticky.has('not_a_tool')).toBe(false);
    expect(names(r.select('write a poem about the sea'))).toContain('obscure_db_tool');
  });

  it('offers a tool this session called again when it comes back after being withdrawn', () => {
    // An MCP server restarting withdraws its tools for a turn; the session still called this one.
    const used = tool('mcp/db/obscure_db_tool', 'vacuum the store', server('mcp/db'));
    const r = new ToolRetriever([...numbered(100), used], { k: 10 });
    r.markUsed(used.name);
    r.setTools(numbered(100));
    expect(names(r.select('write a poem about the sea'))).not.toContain(used.name);
    expect(r.sticky.has(used.name)).toBe(false);
    r.setTools([...numbered(100), { ...used }]);
    expect(r.sticky.has(used.name)).toBe(true);
    expect(names(r.select('write a poem about the sea'))).toContain(used.name);
    r.remove(used.name);
    r.upsert(used);
    expect(names(r.select('write a poem about the sea'))).toContain(used.name);
  });

  it('carries the last turn’s hints into a follow-up that has none', () => {
    const r = new ToolRetriever([...numbered(100), tool('web_fetch', 'fetch a page')], { k: 5 });
    expect(names(r.select('summarize https://example.com/a'))).toContain('web_fetch');
    expect(names(r.select('now say it in fewer words'))).toContain('web_fetch');
    expect(names(r.select('thing 7 please'))).not.toContain('web_fetch');
  });

  it('offers everything one request can carry when selection fails (fail open)', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    const failures: unknown[] = [];
    const tools = [...numbered(100), { name: 'odd', description: 'a tool', parameters: cyclic, core: true }];
    const r = new ToolRetriever(tools, { k: 10, onFailOpen: (e) => failures.push(e) });
    expect(r.select('thing 3', { budgetChars: 5000 })).toHaveLength(101);
    expect(failures).toHaveLength(1);
    const more = new ToolRetriever(
      [...tools, ...numbered(300).map((t) => ({ ...t, name: `more_${t.name}` }))],
      {
        k: 10,
        onFailOpen: () => {},
      },
    );
    const offered = more.select('thing 3', { budgetChars: 5000 });
    expect(offered).toHaveLength(1 + MAX_OFFERED_TOOLS);
    expect(offered.map((t) => t.name)).toContain('odd');
  });

  it('counts what the last selection hid', () => {
    const r = new ToolRetriever(numbered(100), { k: 20 });
    const picked = r.select('a query about thing 3');
    expect(r.hiddenCount).toBe(100 - picked.length);
    expect(r.hiddenCount).toBeGreaterThan(0);
  });

  it('prefers the platform’s own tool on a tie and keeps within the schema budget', () => {
    const params = { type: 'object', properties: { url: { type: 'string', description: 'the address' } } };
    const mine = {
      name: 'web_fetch',
      description: 'fetch a web page',
      parameters: params,
      group: own('web'),
    };
    const theirs = {
      name: 'mcp/aaa/fetch_page',
      description: 'fetch a web page',
      parameters: params,
      group: server('mcp/aaa'),
    };
    const padding = Array.from({ length: 60 }, (_, i) => tool(`pad_${i}`, `padding ${i}`));
    const budget = Math.max(schemaSize(mine), schemaSize(theirs));
    const r = new ToolRetriever([theirs, ...padding, mine], { k: 48 });
    const picked = names(r.select('summarize https://example.com/a', { budgetChars: budget }));
    expect(picked).toContain('web_fetch');
    expect(picked).not.toContain('mcp/aaa/fetch_page');
  });

  it('puts the platform’s tool first when scores tie', () => {
    const a = tool('mcp/zzz/convert_units', 'convert units', server('mcp/zzz'));
    const b = tool('mcp/aaa/convert_units', 'convert units', server('mcp/aaa'));
    const mine = tool('convert_units', 'convert units', own('math'));
    const r = new ToolRetriever([a, b, mine, ...numbered(60)], { k: 1 });
    expect(names(r.select('convert units'))).toEqual(['convert_units']);
  });

  it('narrows the pool to the names it is told', () => {
    const r = new ToolRetriever([...numbered(100), tool('weather_lookup', 'weather forecast')], { k: 5 });
    const picked = names(r.select('weather forecast', { restrict: ['tool_1', 'tool_2'] }));
    expect(picked).toEqual(['tool_1', 'tool_2']);
  });

  it('derives the schema budget from the context window', () => {
    expect(schemaBudgetChars(32_768)).toBe(16_384);
    expect(schemaBudgetChars(128_000)).toBe(64_000);
    expect(schemaBudgetChars(0)).toBeUndefined();
    expect(schemaBudgetChars(undefined)).toBeUndefined();
  });
});

describe('ToolRetriever.search', () => {
  it('finds a tool by what it does, with exactly name and description', () => {
    const r = new ToolRetriever([...numbered(100), tool('obscure_db_migrate', 'run a database migration')]);
    const hits = r.search('database migration');
    expect(names(hits as never)).toContain('obscure_db_migrate');
    for (const h of hits) expect(Object.keys(h).sort()).toEqual(['description', 'name']);
  });

  it('lists tools for an empty query up to the limit', () => {
    expect(new ToolRetriever(numbered(50)).search('', { limit: 10 })).toHaveLength(10);
  });

  it('finds a tool by a word of its description', () => {
    const r = new ToolRetriever([...numbered(50), tool('thumbnail_maker', 'generate a small preview')]);
    expect(names(r.search('preview') as never)).toContain('thumbnail_maker');
  });

  it('leaves out tools the run may not use before cutting at the limit, platform first', () => {
    const hidden = Array.from({ length: 25 }, (_, i) =>
      tool(`mcp/aaa/report_${String(i).padStart(2, '0')}`, 'make a report', server('mcp/aaa')),
    );
    const visible = Array.from({ length: 3 }, (_, i) =>
      tool(`mcp/bbb/report_${i}`, 'make a report', server('mcp/bbb')),
    );
    const mine = tool('report_build', 'make a report', own('reports'));
    const r = new ToolRetriever([...hidden, ...visible, mine]);
    const hits = r.search('report', { limit: 5, shown: (n) => !n.startsWith('mcp/aaa/') });
    expect(names(hits as never)).toEqual([
      'report_build',
      'mcp/bbb/report_0',
      'mcp/bbb/report_1',
      'mcp/bbb/report_2',
    ]);
  });

  it('matches the query as typed against what a tool says, never a missing description', () => {
    const bare = [
      tool('weather_lookup', undefined as unknown as string),
      tool('stock_quote', null as unknown as string),
      tool('page_fetch', ''),
      tool('zq_alpha', 'xylo quux'),
    ];
    const r = new ToolRetriever([...numbered(10), ...bare]);
    for (const query of ['undefined', 'null', 'ned', 'nul', 'ull'])
      expect(names(r.search(query) as never)).toEqual([]);
    expect(names(r.search('ther_lo') as never)).toEqual(['weather_lookup']);
    // Name and description are each read whole: a query spanning the two is in neither.
    expect(names(r.search('pha xyl') as never)).toEqual([]);
    expect(names(r.search('lo qu') as never)).toEqual(['zq_alpha']);
    expect(r.search('stock', { limit: 1 })).toEqual([{ name: 'stock_quote', description: '' }]);
  });

  it('cuts long descriptions', () => {
    const r = new ToolRetriever([tool('long_one', `${'word '.repeat(100)}end`)]);
    const [hit] = r.search('word');
    expect(hit?.description.length).toBeLessThanOrEqual(200);
    expect(hit?.description.endsWith('…')).toBe(true);
  });
});

describe('embedding fusion', () => {
  /** A tiny embedding of meaning: words of one concept share a dimension (stands in for a real model). */
  const CONCEPTS = [
    ['zorp', 'quux', 'blarg'],
    ['fizz', 'wubba'],
  ];
  const embed = async (texts: readonly string[]) =>
    texts.map((t) => CONCEPTS.map((words) => words.filter((w) => t.toLowerCase().includes(w)).length));

  it('finds a tool by meaning when no word matches, once tools are embedded', async () => {
    const tools = [...numbered(60), tool('blarg_maker', 'makes a blarg'), tool('wubba_tool', 'does wubba')];
    const r = new ToolRetriever(tools, { k: 3, embeddings: embed });
    expect(names(r.select('I need a quux'))).not.toContain('blarg_maker');
    expect(await r.embedTools()).toBe(62);
    const vector = await r.embedQuery('I need a quux');
    expect(names(r.select('I need a quux', vector ? { queryVector: vector } : {}))).toContain('blarg_maker');
    expect(names(r.search('quux', vector ? { queryVector: vector } : {}) as never)[0]).toBe('blarg_maker');
  });

  it('sends the source a bounded text for a very long request or description, never the whole of it', async () => {
    const seen: string[] = [];
    const recording = async (texts: readonly string[]) => {
      seen.push(...texts);
      return embed(texts);
    };
    const long = `${'quux '.repeat(20_000)}end`;
    const r = new ToolRetriever([tool('blarg_maker', long), tool('wubba_tool', 'does wubba')], {
      k: 3,
      embeddings: recording,
    });
    expect(await r.embedTools()).toBe(2);
    expect(await r.embedQuery(long)).toBeDefined();
    expect(seen).toHaveLength(3);
    for (const text of seen) expect(text.length).toBeLessThanOrEqual(MAX_EMBEDDED_TEXT);
    expect(seen[0]?.startsWith('blarg_maker: quux quux')).toBe(true);
    expect(seen[1]).toBe('wubba_tool: does wubba');
  });

  it('forgets a tool’s vector when its text changes, until it is embedded again', async () => {
    const r = new ToolRetriever([...numbered(60), tool('maker', 'makes a blarg')], {
      k: 3,
      embeddings: embed,
    });
    await r.embedTools();
    const quux = await r.embedQuery('I need a quux');
    const fizz = await r.embedQuery('some fizz please');
    const by = (v: Float32Array | undefined) => (v ? { queryVector: v } : {});
    expect(names(r.search('I need a quux', by(quux)) as never)[0]).toBe('maker');
    // The server changed what the tool does: the old meaning must not rank it any more.
    r.setTools([...numbered(60), tool('maker', 'does wubba')]);
    expect(names(r.search('I need a quux', by(quux)) as never)).not.toContain('maker');
    expect(await r.embedTools()).toBe(1);
    expect(names(r.search('some fizz please', by(fizz)) as never)[0]).toBe('maker');
  });

  it('stops waiting for an embedding source that never answers, and tells it to give up', async () => {
    const signals: AbortSignal[] = [];
    const stuck = (_texts: readonly string[], signal?: AbortSignal) => {
      if (signal) signals.push(signal);
      return new Promise<number[][]>(() => {});
    };
    const r = new ToolRetriever([...numbered(60), tool('weather_lookup', 'weather forecast')], {
      k: 3,
      embeddings: stuck,
      embedTimeoutMs: 1,
    });
    expect(await r.embedTools(40)).toBe(0);
    expect(await r.embedQuery('weather')).toBeUndefined();
    expect(signals).toHaveLength(3);
    for (const s of signals) expect(s.aborted).toBe(true);
    expect(names(r.select('weather forecast'))).toContain('weather_lookup');
  });

  it('keeps ranking by words when the embedding source fails', async () => {
    const r = new ToolRetriever([...numbered(60), tool('weather_lookup', 'weather forecast')], {
      k: 3,
      embeddings: async () => {
        throw new Error('endpoint down');
      },
    });
    expect(await r.embedTools()).toBe(0);
    expect(await r.embedQuery('weather')).toBeUndefined();
    expect(names(r.select('weather forecast'))).toContain('weather_lookup');
  });
});

describe('requests a personal assistant gets', () => {
  const platform = [
    tool(
      'automation_list',
      'List the automations you have set up, with their schedules.',
      own('platform-automation'),
    ),
    tool(
      'automation_create',
      'Create an automation that runs on a schedule or an event.',
      own('platform-automation'),
    ),
    tool('task_ready', 'List the tasks whose prerequisites are done, ready to start.', own('platform-tasks')),
    tool('task_create', 'Create a task.', own('platform-tasks')),
    tool('decision_list', 'List the decisions you logged, newest first.', own('platform-knowledge')),
    tool(
      'artifact_list',
      'List the artifacts you saved: documents, images and files.',
      own('platform-artifacts'),
    ),
    tool(
      'project_run_list',
      'List project runs and their state (running, finished, failed).',
      own('platform-projects'),
    ),
    tool('chat_search', 'Search earlier conversations.', own('platform-memory')),
  ];
  const servers = ['code-host', 'file-shelf', 'error-feed', 'repo-wiki'].flatMap((s) => serverTools(s, 60));
  const r = new ToolRetriever([...platform, ...servers]);
  const cases: [string, string][] = [
    ['Run my weekly review from my notes.', 'automation_list'],
    ['Which of my tasks are ready to start?', 'task_ready'],
    ['What decisions did I log last month?', 'decision_list'],
    ['Show me my saved artifacts.', 'artifact_list'],
    ['Which project runs are going right now?', 'project_run_list'],
  ];
  for (const [request, expected] of cases) {
    it(`offers ${expected} for "${request}"`, () => {
      const offered = names(r.select(request));
      const deferred = r.tools().filter((t) => !offered.includes(t.name));
      const listing = catalog(deferred, CATALOG_CHARS, { relevance: r.lastRelevance });
      expect(listing.length).toBeLessThanOrEqual(CATALOG_CHARS);
      expect(offered).toContain(expected);
    });
  }
});

describe('server names', () => {
  it('a request naming an MCP server ranks that server’s tools first', () => {
    const tools = ['code-host', 'error-feed', 'file-shelf', 'repo-wiki'].flatMap((s) => serverTools(s, 40));
    const picked = names(
      new ToolRetriever(tools, { k: 10 }).select('archive the old pages in the repo wiki'),
    );
    expect(picked).toContain('mcp/repo-wiki/archive_pages_23');
    expect(picked.every((n) => n.startsWith('mcp/repo-wiki/'))).toBe(true);
  });
});
