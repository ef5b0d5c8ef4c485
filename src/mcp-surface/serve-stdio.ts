import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Runtime } from '../runtime/runtime.js';
import { type ToolServerOptions, toolServer } from './tool-server.js';

/**
 * Serves toolseam's tools to the one client on this process's stdin and stdout (how Claude Code, Codex
 * and Claude Desktop start a server); resolves when the client closes the connection, its session ended.
 */
export async function serveStdio(runtime: Runtime, options: ToolServerOptions): Promise<void> {
  const served = toolServer(runtime, options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    served.server.onclose = () => resolve();
    // The SDK's stdio transport does not notice the end of its input: a client that goes away ends it.
    process.stdin.once('end', () => void served.server.close());
  });
  await served.server.connect(transport);
  await closed;
  await served.close();
}
