import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { createToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import {
  brokenStdio,
  httpServer,
  inProcess,
  notesStdio,
  statefulHttpServer,
} from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const open: McpToolProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

function track(p: McpToolProvider): McpToolProvider {
  open.push(p);
  return p;
}

describe('an MCP server as a tool provider', () => {
  it('lists an in-process SDK server under mcp/<server>/<tool>, tagged with provider, app and group', async () => {
    const provider = track(createMcpProvider(inProcess('notes')));
    expect(provider.name).toBe('mcp/notes');
    expect(provider.app).toBe('notes');
    expect(provider.own).toBe(false);
    const tools = await provider.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['mcp/notes/lookup', 'mcp/notes/ping', 'mcp/notes/search']));
    const lookup = tools.find((t) => t.name === 'mcp/notes/lookup');
    expect(lookup?.description).toBe('');
    expect(lookup?.parameters).toMatchObject({ type: 'object', required: ['query'] });
    expect(lookup?.provider).toBe('mcp/notes');
    expect(lookup?.app).toBe('notes');
    expect(lookup?.group).toEqual({
      key: 'mcp/notes',
      own: false,
      purpose: 'Keeps short notes and finds them again.',
    });
    expect(lookup?.requiresApproval).toBe(true);
    expect(tools.find((t) => t.name === 'mcp/notes/search')?.readOnly).toBe(true);
    expect(provider.loadProblems()).toEqual([]);
  });

  it('a caller that stops waiting for a listing does not fail the others waiting for the same one', async () => {
    const provider = track(createMcpProvider(inProcess('notes')));
    const stop = new AbortController();
    const first = provider.listTools(stop.signal);
    const second = provider.listTools();
    stop.abort(new Error('the turn was stopped'));
    await expect(first).rejects.toMatchObject({
      kind: 'list_failed',
      message: 'The caller stopped waiting for MCP server "notes" to list its tools (it was stopped).',
    });
    expect((await second).map((t) => t.name)).toContain('mcp/notes/lookup');
    const result = await provider.invoke('mcp/notes/lookup', { query: 'plans' }, toolContext());
    expect(result.isError).toBe(false);
  });

  it('calls a tool and joins its text content', async () => {
    const provider = track(createMcpProvider(inProcess('notes')));
    await provider.listTools();
    const result = await provider.invoke('mcp/notes/lookup', { query: 'plans' }, toolContext());
    expect(result).toEqual({ content: 'plans: Ship the seam, then the registry.', isError: false });
  });

  it('passes structured content to the host and describes images and resources', async () => {
    const provider = track(createMcpProvider(inProcess('notes')));
    const search = await provider.invoke('mcp/notes/search', { q: 'a' }, toolContext());
    expect(search.data).toEqual({ structuredContent: { count: 2 } });
    const picture = await provider.invoke('mcp/notes/picture', {}, toolContext());
    expect(picture.content).toContain('[image: image/png, 2.9 KB — not shown]');
    expect(picture.content).toContain('[resource <note://plans> (text/plain)]\nShip it.');
    expect(picture.content).toContain('[resource link: daily <note://daily> (text/markdown)]');
  });

  it('hands an isError result to the model as a tool error, not a refusal', async () => {
    const provider = track(createMcpProvider(inProcess('notes')));
    const result = await provider.invoke('mcp/notes/fail', { why: 'disk full' }, toolContext());
    expect(result.isError).toBe(true);
    expect(result.notRun).toBeUndefined();
    expect(result.content).toBe('Error: could not do it: disk full');
  });

  it('reads numeric text and JSON text as the client sends them, where the field takes no string', async () => {
    const provider = track(createMcpProvider(inProcess('notes')));
    const result = await provider.invoke(
      'mcp/notes/read_multiple_files',
      { paths: JSON.stringify(['daily/today.md']) },
      toolContext(),
    );
    expect(result).toEqual({ content: 'daily/today.md: Water the plants.', isError: false });
    const limited = await provider.invoke('mcp/notes/lookup', { query: 'a', limit: '1' }, toolContext());
    expect(limited.isError).toBe(false);
    expect(limited.content.split('\n')).toHaveLength(1);
  });

  it('updates its tool surface when the server sends tools/list_changed', async () => {
    const provider = track(createMcpProvider(inProcess('notes')));
    await provider.listTools();
    let changes = 0;
    const stop = provider.onToolsChanged?.(() => {
      changes += 1;
    });
    const added = await provider.invoke('mcp/notes/add_tool', { name: 'fresh' }, toolContext());
    expect(added.content).toBe('added fresh');
    await expect.poll(() => changes).toBeGreaterThan(0);
    const names = (await provider.listTools()).map((t) => t.name);
    expect(names).toContain('mcp/notes/fresh');
    expect((await provider.invoke('mcp/notes/fresh', {}, toolContext())).content).toBe('fresh ran');
    stop?.();
  });

  it('refuses a call to a tool the server does not offer, naming it, without sending anything', async () => {
    const provider = track(createMcpProvider(inProcess('notes')));
    const result = await provider.invoke('mcp/notes/nope', {}, toolContext());
    expect(result).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(result.content).toContain('does not offer a tool named mcp/notes/nope');
    const foreign = await provider.invoke('mcp/other/lookup', {}, toolContext());
    expect(foreign.notRun).toBe('refused_by_tool');
  });

  it("turns a protocol error into a refusal carrying the server's reason", async () => {
    const provider = track(createMcpProvider(inProcess('notes')));
    const result = await provider.invoke('mcp/notes/lookup', { query: 42 }, toolContext());
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toMatch(/^Error: /);
    expect(result.content).toContain('query');
  });

  it("quotes a server's error in its own words, without the JSON-RPC code the SDK writes in front twice", async () => {
    const build = () => {
      const mcp = new McpServer({ name: 'picky', version: '1.0.0' });
      mcp.server.registerCapabilities({ tools: {} });
      mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: 'gone', inputSchema: { type: 'object' as const } }],
      }));
      mcp.server.setRequestHandler(CallToolRequestSchema, async () => {
        throw new McpError(ErrorCode.InvalidParams, 'Tool gone not found');
      });
      return mcp;
    };
    const provider = track(createMcpProvider(inProcess('picky', build)));
    expect((await provider.invoke('mcp/picky/gone', {}, toolContext())).content).toBe(
      'Error: MCP server "picky" refused the call to mcp/picky/gone: Tool gone not found',
    );
  });

  it('talks to an SDK server over stdio', async () => {
    const provider = track(createMcpProvider(notesStdio('vault')));
    const tools = await provider.listTools();
    expect(tools.map((t) => t.name)).toContain('mcp/vault/lookup');
    const result = await provider.invoke('mcp/vault/lookup', { query: 'plants' }, toolContext());
    expect(result.content).toBe('daily/today.md: Water the plants.');
    expect(provider.connected).toBe(true);
    await provider.close();
    expect(provider.connected).toBe(false);
  });

  it('talks to an SDK server over Streamable HTTP, sending the configured headers', async () => {
    const web = await httpServer(undefined, ['x-api-key', 'k1']);
    try {
      const provider = track(
        createMcpProvider({ name: 'web', kind: 'http', url: web.url, headers: { 'x-api-key': 'k1' } }),
      );
      expect((await provider.listTools()).map((t) => t.name)).toContain('mcp/web/search');
      const result = await provider.invoke('mcp/web/lookup', { query: 'plans' }, toolContext());
      expect(result.content).toBe('plans: Ship the seam, then the registry.');
      const refused = track(createMcpProvider({ name: 'web2', kind: 'http', url: web.url, headers: {} }));
      await expect(refused.listTools()).rejects.toMatchObject({
        kind: 'start_failed',
        server: 'web2',
        message: expect.stringContaining(`Check that ${web.url} is up and takes the configured headers.`),
      });
    } finally {
      await web.close();
    }
  });

  it('starts a new session when a Streamable HTTP server restarted, and reconnects after it was down', async () => {
    const web = await statefulHttpServer();
    try {
      const provider = track(
        createMcpProvider(
          { name: 'web', kind: 'http', url: web.url, headers: {} },
          { backoff: { initialMs: 10, maxMs: 10 } },
        ),
      );
      const lookup = () => provider.invoke('mcp/web/lookup', { query: 'plans' }, toolContext());
      expect((await lookup()).content).toBe('plans: Ship the seam, then the registry.');
      // As after a restart: the server answers 404 for the old session, and never saw the call.
      await web.forgetSessions();
      const after = await lookup();
      expect(after.content).toBe('plans: Ship the seam, then the registry.');
      expect(web.sessions()).toBe(1);
      expect((await provider.listTools()).map((t) => t.name)).toContain('mcp/web/lookup');

      await web.stop();
      const down = await lookup();
      expect(down).toMatchObject({ isError: true });
      expect(down.content).toMatch(/MCP server "web" (refused the connection|could not be reached)/);
      await web.restart();
      await new Promise((r) => setTimeout(r, 30));
      expect((await lookup()).content).toBe('plans: Ship the seam, then the registry.');
    } finally {
      await web.stop();
    }
  });

  it('says a call was cut short because toolseam shut the server down', async () => {
    const provider = createMcpProvider(brokenStdio('closing', 'ok'));
    await provider.listTools();
    const pending = provider.invoke('mcp/closing/wait', {}, toolContext());
    await new Promise((r) => setTimeout(r, 50));
    await provider.close();
    expect((await pending).content).toBe(
      'Error: mcp/closing/wait was stopped because toolseam shut MCP server "closing" down.',
    );
    const after = await provider.invoke('mcp/closing/echo', { text: 'x' }, toolContext());
    expect(after).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(after.content).toContain('was closed');
  });
});

/** A server whose tools/list hands out one tool per page, `pages` pages long (Infinity: never ends). */
function pagedServer(pages: number): () => McpServer {
  return () => {
    const mcp = new McpServer({ name: 'paged', version: '1.0.0' });
    mcp.server.registerCapabilities({ tools: {} });
    mcp.server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const page = Number(request.params?.cursor ?? 0);
      const tool = {
        name: `t${page}`,
        description: `Tool ${page}.`,
        inputSchema: { type: 'object' as const },
      };
      return page + 1 < pages ? { tools: [tool], nextCursor: String(page + 1) } : { tools: [tool] };
    });
    mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [],
      isError: request.params.name === 't0',
    }));
    return mcp;
  };
}

describe('tools/list pages and empty answers', () => {
  it('reads every page of a paged listing', async () => {
    const provider = track(createMcpProvider(inProcess('paged', pagedServer(3))));
    expect((await provider.listTools()).map((t) => t.name)).toEqual([
      'mcp/paged/t0',
      'mcp/paged/t1',
      'mcp/paged/t2',
    ]);
    expect(provider.loadProblems()).toEqual([]);
  });

  it('takes an empty nextCursor as the last page, as servers that always write the field send it', async () => {
    const build = () => {
      const mcp = new McpServer({ name: 'blank', version: '1.0.0' });
      mcp.server.registerCapabilities({ tools: {} });
      mcp.server.setRequestHandler(ListToolsRequestSchema, async (request) => {
        if (request.params?.cursor !== undefined) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `unknown cursor ${JSON.stringify(request.params.cursor)}`,
          );
        }
        return { tools: [{ name: 'only', inputSchema: { type: 'object' as const } }], nextCursor: '' };
      });
      return mcp;
    };
    const provider = track(createMcpProvider(inProcess('blank', build)));
    expect((await provider.listTools()).map((t) => t.name)).toEqual(['mcp/blank/only']);
    expect(provider.loadProblems()).toEqual([]);
  });

  it('stops at 100 pages of a listing that never ends, and says so', async () => {
    // Each page's request gets a signal of its own: the SDK's listeners do not pile up on one.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const provider = track(createMcpProvider(inProcess('endless', pagedServer(Number.POSITIVE_INFINITY))));
      expect(await provider.listTools()).toHaveLength(100);
      expect(provider.loadProblems()[0]).toContain('kept answering tools/list with more pages');
      await new Promise((done) => setImmediate(done));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('tells a failure with no content from a success with none', async () => {
    const provider = track(createMcpProvider(inProcess('paged', pagedServer(2))));
    await provider.listTools();
    expect(await provider.invoke('mcp/paged/t0', {}, toolContext())).toEqual({
      content: 'Error: The tool reported a failure and said nothing more.',
      isError: true,
    });
    expect((await provider.invoke('mcp/paged/t1', {}, toolContext())).content).toBe(
      'The tool finished and returned no content.',
    );
  });
});

describe('an MCP server that offers no tools, only resources or prompts', () => {
  /** A server as a documentation server is: resources and a prompt, no tools capability at all. */
  function docsServer(): McpServer {
    const server = new McpServer({ name: 'docs', version: '1.0.0' });
    server.registerResource('guide', 'docs://guide', { mimeType: 'text/plain' }, async () => ({
      contents: [{ uri: 'docs://guide', text: 'Read me first.' }],
    }));
    server.registerPrompt('summarize', { description: 'Summarize the guide.' }, async () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarize docs://guide.' } }],
    }));
    return server;
  }

  it('lists no tools, and is not reported as failing to list them', async () => {
    const provider = track(createMcpProvider(inProcess('docs', docsServer)));
    expect(await provider.listTools()).toEqual([]);
    const registry = createToolRegistry({ relistAfterMs: 0 });
    registry.register(provider);
    const served = await registry.serve();
    expect(served.tools).toEqual([]);
    expect(served.failures).toEqual([]);
    const result = await provider.invoke('mcp/docs/read', {}, toolContext());
    expect(result).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(result.content).toContain('does not offer a tool named mcp/docs/read');
  });

  it('still reports a server that says it has tools but will not list them', async () => {
    const provider = track(
      createMcpProvider(
        inProcess('liar', () => {
          const server = docsServer();
          server.server.registerCapabilities({ tools: {} });
          return server;
        }),
      ),
    );
    await expect(provider.listTools()).rejects.toMatchObject({ kind: 'list_failed' });
  });
});

describe('closing a Streamable HTTP server', () => {
  it('ends toolseam’s session on the server (HTTP DELETE), so the server can let it go', async () => {
    const web = await statefulHttpServer();
    try {
      const provider = createMcpProvider({ name: 'web', kind: 'http', url: web.url, headers: {} });
      await provider.listTools();
      expect(web.sessions()).toBe(1);
      await provider.close();
      expect(web.sessions()).toBe(0);
    } finally {
      await web.stop();
    }
  });
});

describe('a Streamable HTTP server that stops taking toolseam’s credentials', () => {
  it.each([
    [401, 'did not accept the credentials toolseam sent'],
    [403, 'does not let the credentials toolseam sent do this'],
  ])(
    'HTTP %i: the call is refused, not run, and the person is pointed at the headers',
    async (status, why) => {
      const web = await statefulHttpServer();
      try {
        const provider = track(createMcpProvider({ name: 'web', kind: 'http', url: web.url, headers: {} }));
        await provider.listTools();
        web.refuse(status);
        const result = await provider.invoke('mcp/web/lookup', { query: 'plans' }, toolContext());
        expect(result).toEqual({
          content:
            `Error: MCP server "web" turned the call to mcp/web/lookup down with HTTP ${status}: it ${why}, so nothing was run. ` +
            'The headers configured for this server (its token) have to be fixed by the user.',
          isError: true,
          notRun: 'refused_by_tool',
          data: { code: 'mcp_http_refused', server: 'web', tool: 'mcp/web/lookup', status },
        });
      } finally {
        await web.stop();
      }
    },
  );
});
