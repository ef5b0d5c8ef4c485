import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../src/core/logger.js';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { inProcess } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const open: McpToolProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

/** A server whose tools ask the client for a completion (sampling) and for its roots while they run. */
function askingServer(): McpServer {
  const server = new McpServer({ name: 'helper', version: '1.0.0' });
  server.registerTool('summarize', { description: 'Summarizes with the host model.' }, async () => {
    const answer = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the notes.' } }],
      maxTokens: 100,
    });
    return { content: [{ type: 'text', text: JSON.stringify(answer.content) }] };
  });
  server.registerTool('where', { description: 'Lists the folders it may use.' }, async () => {
    const { roots } = await server.server.listRoots();
    return { content: [{ type: 'text', text: roots.map((r) => r.uri).join('\n') }] };
  });
  return server;
}

describe('requests an MCP server sends toolseam', () => {
  it('are answered with what toolseam does not support, not a bare "Method not found", and logged once', async () => {
    const logger = memoryLogger();
    const provider = createMcpProvider(inProcess('helper', askingServer), { logger });
    open.push(provider);
    const summary = await provider.invoke('mcp/helper/summarize', {}, toolContext());
    expect(summary.isError).toBe(true);
    expect(summary.content).toContain('toolseam does not let an MCP server ask its model to write text');
    const where = await provider.invoke('mcp/helper/where', {}, toolContext());
    expect(where.isError).toBe(true);
    expect(where.content).toContain('toolseam does not tell MCP servers which folders they may use');
    await provider.invoke('mcp/helper/summarize', {}, toolContext());
    const warned = logger.records.filter((r) => r.level === 'warn').map((r) => r.message);
    expect(warned).toEqual([
      'MCP server "helper" asked toolseam for a completion from its model (sampling/createMessage), which toolseam does not support; the server was told so.',
      'MCP server "helper" asked toolseam for its roots (roots/list), which toolseam does not support; the server was told so.',
    ]);
  });
});
