import { describe, expect, it } from 'vitest';
import {
  answerToolSchema,
  answerToolSearch,
  CATALOG_NOTE,
  catalogNote,
  META_TOOLS,
  TOOL_SCHEMA,
  TOOL_SEARCH,
} from '../../src/retrieval/meta-tools.js';
import { fragmentNames, hintedFragments } from '../../src/retrieval/structural-hints.js';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { numbered, own, server, tool } from './fixtures.js';

const retriever = new ToolRetriever([
  ...numbered(40),
  tool('currency_convert', 'Convert an amount between currencies at today’s rate.', own('finance')),
  tool('mcp/bank/convert_money', 'Convert money between currencies.', server('mcp/bank')),
]);

describe('meta-tool definitions', () => {
  it('are safe core tools with a required argument each', () => {
    expect(META_TOOLS.map((t) => t.name)).toEqual(['tool_search', 'tool_schema']);
    for (const t of META_TOOLS) {
      expect(t).toMatchObject({ risk: 'safe', requiresApproval: false, core: true });
      expect(t.description.length).toBeGreaterThan(40);
    }
    expect(TOOL_SEARCH.parameters).toMatchObject({ required: ['query'] });
    expect(TOOL_SCHEMA.parameters).toMatchObject({ required: ['name'] });
  });
});

describe('tool_search answers', () => {
  it('ranks the catalog, platform tool first, one line per tool', () => {
    const result = answerToolSearch(retriever, { query: 'convert currencies' });
    expect(result.isError).toBe(false);
    const lines = result.content.split('\n');
    expect(lines[1]).toMatch(/^- currency_convert: Convert an amount/);
    expect(lines[2]).toMatch(/^- mcp\/bank\/convert_money: /);
  });

  it('applies the limit after leaving out tools the run may not use', () => {
    const result = answerToolSearch(retriever, '{"query": "convert", "limit": "1"}', {
      shown: (n) => n !== 'currency_convert',
    });
    expect(result.data).toEqual({
      hits: [{ name: 'mcp/bank/convert_money', description: 'Convert money between currencies.' }],
    });
  });

  it('defaults to 20 answers', () => {
    const result = answerToolSearch(retriever, { query: '' });
    expect((result.data as { hits: unknown[] }).hits).toHaveLength(20);
  });

  it('says so when nothing matches, and explains bad arguments', () => {
    expect(answerToolSearch(retriever, { query: 'xylophone tuning' }).content).toMatch(/No tool matched/);
    expect(answerToolSearch(retriever, {}).isError).toBe(true);
    expect(answerToolSearch(retriever, { query: 'x', limit: 0 }).content).toMatch(/limit/);
    expect(answerToolSearch(retriever, 'not json').isError).toBe(true);
  });

  it('echoes only the head of a long query, so the answer is the tools and not the query', () => {
    // A pasted block as the query: echoed whole, it filled the result's room before the first hit.
    const query = `convert currencies\n${'qzx wvq\n'.repeat(5000)}`;
    const result = answerToolSearch(retriever, { query });
    expect(result.isError).toBe(false);
    const [header, ...lines] = result.content.split('\n');
    expect(header?.startsWith('Tools matching "convert currencies qzx wvq')).toBe(true);
    expect(header?.length).toBeLessThanOrEqual(300);
    expect(lines[0]).toBe('- currency_convert: Convert an amount between currencies at today’s rate.');
    expect(result.content.length).toBeLessThan(4000);
  });
});

describe('tool_schema answers', () => {
  it('gives the full description and parameters as JSON', () => {
    const result = answerToolSchema(retriever, { name: 'currency_convert' });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content)).toMatchObject({
      name: 'currency_convert',
      description: 'Convert an amount between currencies at today’s rate.',
      parameters: { type: 'object' },
      group: 'finance',
    });
  });

  it('points at tool_search for an unknown or unavailable name', () => {
    const unknown = answerToolSchema(retriever, { name: 'Currency_Convert' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toMatch(/tool_search/);
    expect(answerToolSchema(retriever, { name: 'currency_convert' }, { shown: () => false }).isError).toBe(
      true,
    );
    expect(answerToolSchema(retriever, {}).content).toMatch(/needs "name"/);
  });

  it('says why a tool that exists outside the catalog cannot be used, instead of sending the model searching', () => {
    const unavailable = (n: string) =>
      n === 'send_email' ? 'it is not on this agent’s tool list' : undefined;
    const result = answerToolSchema(retriever, { name: 'send_email' }, { unavailable });
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toBe(
      '"send_email" exists but cannot be used here: it is not on this agent’s tool list.',
    );
    expect(answerToolSchema(retriever, { name: 'make_coffee' }, { unavailable }).content).toMatch(
      /tool_search/,
    );
  });

  it('names a long unknown name by its head, keeping the way on in view', () => {
    const unknown = answerToolSchema(retriever, { name: `currency_${'x'.repeat(40_000)}` });
    expect(unknown.isError).toBe(true);
    expect(unknown.content.length).toBeLessThan(500);
    expect(unknown.content).toMatch(/^There is no tool named "currency_x+…"/);
    expect(unknown.content).toMatch(/tool_search/);
  });

  it('knows a tool by the wire name the model saw it under', () => {
    const wire = new Map([['finance_currency_convert', 'currency_convert']]);
    const result = answerToolSchema(
      retriever,
      { name: 'finance_currency_convert' },
      { realName: (n) => wire.get(n) },
    );
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content)).toMatchObject({ name: 'currency_convert' });
    expect(answerToolSchema(retriever, { name: 'finance_currency_convert' }).isError).toBe(true);
  });
});

describe('catalog note', () => {
  it('explains the catalog and is empty when nothing is deferred', () => {
    expect(catalogNote('')).toBe('');
    expect(catalogNote('[files]\n- a')).toBe(`${CATALOG_NOTE}\n[files]\n- a`);
  });
});

describe('structural hints', () => {
  it('match tool names by words, never by substrings', () => {
    expect(fragmentNames('read', 'task_ready')).toBe(false);
    expect(fragmentNames('task', 'task_ready')).toBe(true);
    expect(fragmentNames('fetch', 'mcp__web__fetch')).toBe(true);
    expect(fragmentNames('schedule', 'listSchedules')).toBe(true);
    expect(fragmentNames('automation_create', 'automation_create')).toBe(true);
  });

  it('point at scheduling, automation, memory, recent-work and task tools', () => {
    expect(hintedFragments('remind me every monday at 9')).toContain('schedule');
    expect(hintedFragments('whenever a file lands in my inbox, tag it')).toContain('automation_create');
    expect(hintedFragments('what did we decide yesterday?')).toContain('chat_search');
    expect(hintedFragments('do you remember my sister’s name')).toContain('memory');
    expect(hintedFragments('which tasks are ready to start')).toContain('task');
    expect(hintedFragments('write a poem about the sea')).toEqual([]);
  });
});
