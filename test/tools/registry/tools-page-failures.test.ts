import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { createToolRegistry, type ToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import { toolsPage } from '../../../src/tools/registry/tools-page.js';
import { inProcess } from '../../support/mcp-servers.js';

const registries: ToolRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.close()));
});

describe("the Tools page's failures for a server that stops listing", () => {
  it('no longer names tools it once could not offer, only why it has no tools now', async () => {
    let listing: 'tools' | 'broken' = 'tools';
    let mcp: McpServer | undefined;
    const build = () => {
      mcp = new McpServer(
        { name: 'shaky', version: '1.0.0' },
        { capabilities: { tools: { listChanged: true } } },
      );
      mcp.server.setRequestHandler(ListToolsRequestSchema, async () => {
        if (listing === 'broken') throw new McpError(ErrorCode.InternalError, 'index not built');
        return {
          tools: [
            { name: 'fine', inputSchema: { type: 'object' as const } },
            // A root that is not an object: no provider can take it.
            { name: 'text_root', inputSchema: { type: 'string' } as never },
          ],
        };
      });
      return mcp;
    };
    const registry = createToolRegistry({ relistAfterMs: 0 });
    registries.push(registry);
    const provider = createMcpProvider(inProcess('shaky', build));
    registry.register(provider);
    const kinds = async () => (await toolsPage(registry)).failures.map((f) => f.message);

    expect((await kinds()).join('\n')).toContain('mcp/shaky/text_root');
    listing = 'broken';
    const stamp = registry.surfaceStamp();
    await mcp?.server.sendToolListChanged();
    await expect.poll(() => registry.surfaceStamp()).not.toBe(stamp);
    expect(await kinds()).toEqual([
      'MCP server "shaky" answered tools/list with an error: index not built (JSON-RPC error -32603).',
    ]);
  });
});
