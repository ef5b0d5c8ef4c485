import { afterEach } from 'vitest';
import {
  createMcpProvider,
  type McpProviderOptions,
  type McpToolProvider,
} from '../../src/tools/mcp/mcp-provider.js';
import { brokenStdio } from './mcp-servers.js';

/**
 * Providers for the misbehaving stdio MCP server (`mcp-broken-server.mjs`), each closed after its test:
 * `broken(mode)` starts it in a mode, `track` closes any other provider the same way.
 */
export function brokenProviders(): {
  broken(mode: string, options?: McpProviderOptions): McpToolProvider;
  track(provider: McpToolProvider): McpToolProvider;
} {
  const open: McpToolProvider[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.close()));
  });
  const track = (provider: McpToolProvider) => {
    open.push(provider);
    return provider;
  };
  return {
    broken: (mode, options = {}) => track(createMcpProvider(brokenStdio(mode, mode), options)),
    track,
  };
}
