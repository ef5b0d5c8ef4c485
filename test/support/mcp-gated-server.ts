import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * A server whose tools/list answers with the tool list as it was when the request came in; `change`
 * moves it to its next version, sends tools/list_changed and holds every listing asked from then on
 * until the function it returns is called.
 */
export function gatedServer(): {
  build: () => McpServer;
  listsAsked: () => number;
  change: () => Promise<() => void>;
} {
  let version = 1;
  let asked = 0;
  let open = Promise.resolve();
  let mcp: McpServer | undefined;
  return {
    build: () => {
      mcp = new McpServer(
        { name: 'gated', version: '1.0.0' },
        { capabilities: { tools: { listChanged: true } } },
      );
      mcp.server.setRequestHandler(ListToolsRequestSchema, async () => {
        const seen = version;
        asked += 1;
        await open;
        return { tools: [{ name: `v${seen}`, inputSchema: { type: 'object' as const } }] };
      });
      return mcp;
    },
    listsAsked: () => asked,
    change: async () => {
      version += 1;
      let release = () => {};
      open = new Promise<void>((done) => {
        release = done;
      });
      await mcp?.server.sendToolListChanged();
      return release;
    },
  };
}
