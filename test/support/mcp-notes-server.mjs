// A small MCP server built on the SDK's own McpServer class, run over stdio by tests and benchmarks.
// It mirrors a notes app: tools with and without descriptions, typed inputs, and a tool that adds tools.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod/v4';

/** Builds the notes server; `name` lets one script play several servers. */
export function notesServer(name = 'notes') {
  const server = new McpServer(
    { name, version: '1.0.0', description: 'Keeps short notes and finds them again.' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const notes = new Map([
    ['plans', 'Ship the seam, then the registry.'],
    ['daily/today.md', 'Water the plants.'],
  ]);
  server.registerTool(
    'lookup',
    {
      description: '',
      inputSchema: { query: z.string().describe('the text to find'), limit: z.number().int().optional() },
    },
    async ({ query, limit }) => {
      const hits = [...notes]
        .filter(([k, v]) => k.includes(query) || v.includes(query))
        .slice(0, limit ?? 10);
      return {
        content: [{ type: 'text', text: hits.map(([k, v]) => `${k}: ${v}`).join('\n') || 'no match' }],
      };
    },
  );
  server.registerTool('ping', { description: '   ' }, async () => ({
    content: [{ type: 'text', text: 'pong' }],
  }));
  server.registerTool(
    'search',
    { description: 'Search the notes.', inputSchema: { q: z.string() }, annotations: { readOnlyHint: true } },
    async ({ q }) => ({
      content: [{ type: 'text', text: `${[...notes.keys()].filter((k) => k.includes(q)).length} note(s)` }],
      structuredContent: { count: [...notes.keys()].filter((k) => k.includes(q)).length },
    }),
  );
  server.registerTool(
    'read_multiple_files',
    {
      description: 'Read several notes at once.',
      inputSchema: { paths: z.array(z.string()) },
    },
    async ({ paths }) => ({
      content: paths.map((p) => ({ type: 'text', text: `${p}: ${notes.get(p) ?? '(missing)'}` })),
    }),
  );
  server.registerTool(
    'fail',
    { description: 'Always reports a tool error.', inputSchema: { why: z.string().optional() } },
    async ({ why }) => ({
      content: [{ type: 'text', text: `could not do it: ${why ?? 'no reason'}` }],
      isError: true,
    }),
  );
  server.registerTool('picture', { description: 'Returns an image and a resource.' }, async () => ({
    content: [
      { type: 'image', data: Buffer.alloc(3000).toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'note://plans', mimeType: 'text/plain', text: 'Ship it.' } },
      { type: 'resource_link', uri: 'note://daily', name: 'daily', mimeType: 'text/markdown' },
    ],
  }));
  server.registerTool(
    'add_tool',
    { description: 'Adds a tool named after its argument.', inputSchema: { name: z.string() } },
    async ({ name: added }) => {
      server.registerTool(added, { description: `Added at run time: ${added}.` }, async () => ({
        content: [{ type: 'text', text: `${added} ran` }],
      }));
      return { content: [{ type: 'text', text: `added ${added}` }] };
    },
  );
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = notesServer(process.argv[2] ?? 'notes');
  await server.connect(new StdioServerTransport());
}
