import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDefinition, ToolProvider } from '../../../src/core/tool.js';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import { defineTool, field, inProcessProvider } from '../../../src/tools/index.js';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { createToolRegistry, type ToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import {
  type ToolsPage,
  type ToolsPageRow,
  toolsPage,
  toolsPageJson,
} from '../../../src/tools/registry/tools-page.js';
import { renderToolsPage } from '../../../src/tools/registry/tools-page-text.js';
import { brokenStdio, inProcess, notesStdio, npmStdio } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const examples = resolve(import.meta.dirname, '..', '..', '..', 'examples', 'apps');

function raw(name: string, tools: Array<Partial<ToolDefinition> & { name: string }>): ToolProvider {
  return {
    name,
    app: name,
    own: false,
    async listTools() {
      return tools.map((t) => ({
        description: `Does ${t.name}.`,
        parameters: { type: 'object', properties: {} },
        risk: 'caution',
        requiresApproval: true,
        ...t,
      }));
    },
    async invoke(tool) {
      return { content: `${name} ran ${tool}`, isError: false };
    },
  };
}

const builtin = inProcessProvider({
  name: 'builtin',
  own: true,
  group: { key: 'clock', own: true, purpose: 'Tell the time.' },
  tools: [
    defineTool({
      name: 'clock_now',
      description: 'Say what time it is in a time zone.',
      risk: 'safe',
      fields: { zone: field.string({ description: 'An IANA time zone', optional: true }) },
      handler: () => 'It is noon.',
    }),
  ],
});

describe('the Tools page says why each tool is where it is, and the rest keeps working', () => {
  let registry: ToolRegistry;
  let page: ToolsPage;
  const row = (name: string): ToolsPageRow => {
    const found = page.rows.find((r) => r.name === name);
    if (!found) throw new Error(`no row for ${name}`);
    return found;
  };

  beforeAll(async () => {
    registry = createToolRegistry({ listTimeoutMs: 20_000, switchedOff: ['mcp/vault/picture'] });
    registry.register(createMcpProvider(inProcess('notes')));
    registry.register(createMcpProvider(notesStdio('vault')));
    registry.register(
      createMcpProvider(npmStdio('everything', '@modelcontextprotocol/server-everything', 'dist/index.js')),
    );
    registry.register(createMcpProvider(brokenStdio('crashy', 'crash-at-start')));
    registry.register(createMcpProvider(brokenStdio('stuck', 'hang-list'), { timeouts: { listMs: 500 } }));
    registry.register(createMcpProvider(brokenStdio('malformed', 'malformed')));
    registry.register(createMcpProvider(brokenStdio('odd', 'odd')));
    registry.register(await loadApp(join(examples, 'unit-converter')));
    registry.register(await loadApp(join(examples, 'missing-app')));
    registry.register(
      raw('demo', [
        { name: 'demo/a_b/x' },
        { name: 'demo/a.b/x' },
        { name: 'demo/kept' },
        { name: 'tool_search' },
      ]),
    );
    registry.register(builtin);
    page = await toolsPage(registry);
  });
  afterAll(async () => {
    await registry.close();
  });

  it('lists groups with the platform first, then each server and app', () => {
    const keys = page.groups.map((g) => g.group.key);
    expect(keys[0]).toBe('clock');
    expect(keys).toEqual(
      expect.arrayContaining([
        'mcp/notes',
        'mcp/vault',
        'mcp/everything',
        'mcp/odd',
        'unit-converter',
        'demo',
      ]),
    );
    expect(row('clock_now')).toMatchObject({
      status: 'offered',
      provider: 'builtin',
      app: 'builtin',
      wireName: 'clock_now',
    });
  });

  it('shows the description models see, written by the seam when a tool has none', () => {
    const lookup = row('mcp/notes/lookup');
    expect(lookup.descriptionDerived).toBe(true);
    expect(lookup.description).toContain('"mcp/notes/lookup"');
    expect(lookup.description).toContain('no description');
    expect(lookup.description).toContain('query (string, required) — the text to find');
    expect(row('mcp/notes/ping').description).toContain('no arguments');
    expect(row('mcp/notes/search').description).toBe('Search the notes.');
  });

  it('says what was repaired and which paths travel as JSON text', () => {
    const convert = row('convert_length');
    expect(convert.status).toBe('repaired');
    expect(convert.issues).toEqual([
      expect.objectContaining({
        rule: 'keyword_unsupported',
        path: 'additionalProperties',
        action: 'repaired',
      }),
    ]);
    const tree = row('mcp/odd/tree');
    expect(tree.status).toBe('lifted');
    expect(tree.lifted).toEqual(['root.children']);
    expect(row('mcp/odd/ünïcödé-名前')).toMatchObject({
      status: 'offered',
      wireName: expect.stringMatching(/^mcp_odd__n_c_d_-___[0-9a-f]{8}$/),
    });
    expect(row('mcp/odd/x/y')).toMatchObject({ status: 'offered', wireName: 'mcp_odd_x_y' });
  });

  it('says why a tool is left out: an unportable root, a shared wire name, a runtime name, a switch', () => {
    expect(row('mcp/malformed/string_root')).toMatchObject({
      status: 'excluded',
      reason: expect.stringContaining('no portable form'),
    });
    expect(row('mcp/odd/a.b')).toMatchObject({
      status: 'excluded',
      reason: expect.stringContaining('"mcp_odd_a_b"'),
    });
    expect(row('mcp/odd/a_b').status).toBe('excluded');
    expect(row('tool_search').issues[0]).toMatchObject({ rule: 'name_reserved' });
    expect(row('mcp/vault/picture')).toMatchObject({
      status: 'excluded',
      switchedOff: true,
      reason: 'it is switched off',
    });
    expect(row('demo/kept').status).toBe('offered');
  });

  it('records every provider’s failures: the broken servers, the missing app, and the tools models never see', () => {
    const byProvider = (p: string) =>
      page.failures
        .filter((f) => f.provider === p)
        .map((f) => f.message)
        .join('\n');
    expect(byProvider('mcp/crashy')).toContain('the database file notes.db is locked');
    expect(byProvider('mcp/stuck')).toContain('did not answer tools/list within 500 ms');
    expect(byProvider('mcp/malformed')).toContain('without a name');
    expect(byProvider('mcp/malformed')).toContain(
      'not offered to models because the parameter schema has no portable form: mcp/malformed/string_root',
    );
    expect(byProvider('missing-app')).toContain('the folder does not exist');
    const demo = byProvider('demo');
    expect(demo).toContain('not offered to models');
    expect(demo).toContain('demo/a_b/x (sent as "demo_a_b_x")');
    expect(demo).toContain('demo/a.b/x (sent as "demo_a_b_x")');
    expect(demo).toContain('tool_search (sent as "tool_search", a name of the runtime’s own tools)');
    expect(demo).not.toContain('demo/kept');
    expect(page.failures.every((f) => f.message.length <= 300)).toBe(true);
    expect(
      page.failures.filter((f) => f.provider === 'mcp/everything' || f.provider === 'unit-converter'),
    ).toEqual([]);
  });

  it('keeps serving every working provider', async () => {
    const ctx = toolContext();
    expect((await registry.invoke('clock_now', {}, ctx)).content).toBe('It is noon.');
    expect((await registry.invoke('mcp/vault/lookup', { query: 'plans' }, ctx)).isError).toBe(false);
    expect((await registry.invoke('mcp/everything/echo', { message: 'still here' }, ctx)).content).toBe(
      'Echo: still here',
    );
    expect((await registry.invoke('convert_temperature', { value: 100, to: 'F' }, ctx)).content).toBe(
      '100 °C = 212 °F',
    );
    expect((await registry.invoke('mcp/crashy/echo', {}, ctx)).isError).toBe(true);
  });

  it('gives the JSON shape the issue fixes, and a readable text page', () => {
    const json = toolsPageJson(page);
    expect(Object.keys(json)).toEqual(['tools', 'failures']);
    for (const tool of json.tools) {
      expect(Object.keys(tool)).toEqual([
        'name',
        'wireName',
        'provider',
        'app',
        'status',
        'description',
        'issues',
      ]);
      expect(['offered', 'repaired', 'lifted', 'excluded']).toContain(tool.status);
    }
    for (const failure of json.failures) expect(Object.keys(failure)).toEqual(['provider', 'app', 'message']);
    const text = renderToolsPage(page);
    expect(text).toMatch(
      /^\d+ tool\(s\): \d+ offered as declared, \d+ repaired, 1 with arguments as JSON text/,
    );
    expect(text).toContain('clock (platform) — Tell the time.');
    expect(text).toContain(
      'mcp/odd/tree  (sent as mcp_odd_tree)\n    offered, with root.children carried as JSON text',
    );
    expect(text).toContain('Load failures');
  });

  it('clears a verdict failure once nothing of that provider is left out any more', async () => {
    await registry.unregister('demo');
    registry.register(raw('demo', [{ name: 'demo/kept' }]));
    const again = await toolsPage(registry);
    expect(again.failures.filter((f) => f.provider === 'demo')).toEqual([]);
  });
});

describe('the Tools page and the deny-list', () => {
  it('shows a tool the deny-list refuses as left out by the configuration, and records no failure for it', async () => {
    const registry = createToolRegistry();
    registry.register(
      raw('demo', [
        { name: 'demo/wipe' },
        { name: 'demo/read' },
        // unportable as well as denied: the deny-list is what the page names first
        { name: 'demo/odd', parameters: { type: 'string' } as never },
      ]),
    );
    const deniedBy = (name: string) =>
      name === 'demo/wipe' ? { reason: 'nothing is wiped here' } : name === 'demo/odd' ? {} : undefined;
    const page = await toolsPage(registry, { deniedBy });
    const row = (name: string) => page.rows.find((r) => r.name === name);
    expect(row('demo/wipe')).toMatchObject({
      status: 'excluded',
      denied: true,
      reason: "the configuration's deny-list refuses it (nothing is wiped here)",
    });
    expect(row('demo/wipe')?.issues[0]).toMatchObject({ rule: 'denied', action: 'blocking' });
    expect(row('demo/odd')).toMatchObject({ status: 'excluded', denied: true });
    expect(row('demo/odd')?.reason).toMatch(/^the configuration's deny-list refuses it, and /);
    expect(row('demo/read')).toMatchObject({ status: 'offered', denied: false });
    expect(page.failures).toEqual([]);
    const text = renderToolsPage(page);
    expect(text).toContain(
      "  demo/wipe  (sent as demo_wipe)\n    left out: the configuration's deny-list refuses it (nothing is wiped here)",
    );
    expect(text).toContain(
      "    - the deny-list in toolseam's configuration refuses it (nothing is wiped here)",
    );
    await registry.close();
  });
});
