// The baseline of bench/mcp-serve: a bare MCP server on the SDK over stdio, with one tool doing what the
// serve app's `greet` does, so a round trip to it is the SDK and the pipe alone.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod/v4';

const server = new McpServer({ name: 'bare', version: '1.0.0' });
server.registerTool(
  'greet',
  { description: 'Greets a person by name.', inputSchema: { name: z.string().max(20) } },
  async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
);
await server.connect(new StdioServerTransport());
