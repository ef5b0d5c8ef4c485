import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { mcpToolName } from '../../../src/tools/mcp/mcp-tool-listing.js';
import { contractServer } from '../../support/mcp-contract-server.mjs';
import { inProcess } from '../../support/mcp-servers.js';
import { describeToolProviderContract } from '../tool-provider.contract.js';

describeToolProviderContract('mcp-in-process', async ({ callMs }) => ({
  provider: createMcpProvider(
    inProcess('contract', () => contractServer()),
    { timeouts: { callMs } },
  ),
  nameOf: (tool) => mcpToolName('contract', tool),
}));
