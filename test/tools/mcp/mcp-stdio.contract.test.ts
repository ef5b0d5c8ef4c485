import { resolve } from 'node:path';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { mcpToolName } from '../../../src/tools/mcp/mcp-tool-listing.js';
import { describeToolProviderContract } from '../tool-provider.contract.js';

const script = resolve(import.meta.dirname, '..', '..', 'support', 'mcp-contract-server.mjs');

describeToolProviderContract('mcp-stdio', async ({ callMs }) => ({
  provider: createMcpProvider(
    { name: 'contract', kind: 'stdio', command: process.execPath, args: [script], env: {} },
    { timeouts: { callMs } },
  ),
  nameOf: (tool) => mcpToolName('contract', tool),
}));
