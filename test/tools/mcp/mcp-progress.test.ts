import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { inProcess } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const open: McpToolProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

/** A server whose one tool works for `steps` × 100 ms, reporting progress after each step when asked to. */
function slowServer(steps: number) {
  return inProcess('slow', () => {
    const mcp = new McpServer({ name: 'slow', version: '1.0.0' });
    mcp.registerTool(
      'crunch',
      { description: 'Works for a while, saying how far it got.' },
      async (extra) => {
        const token = extra._meta?.progressToken;
        for (let step = 1; step <= steps; step += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          if (token !== undefined) {
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: step, total: steps },
            });
          }
        }
        return { content: [{ type: 'text', text: 'crunched' }] };
      },
    );
    return mcp;
  });
}

describe('a long MCP call that reports progress', () => {
  it('is not cut off at the call timeout while its server keeps saying how far it got', async () => {
    // Twenty-five steps of 100 ms against a 1 s timeout: silence never reaches it, the whole call does.
    const provider = createMcpProvider(slowServer(25), { timeouts: { callMs: 1000 } });
    open.push(provider);
    await provider.listTools();
    const result = await provider.invoke('mcp/slow/crunch', {}, toolContext());
    expect(result).toEqual({ content: 'crunched', isError: false });
  });
});
