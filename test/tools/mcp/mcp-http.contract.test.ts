import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { mcpToolName } from '../../../src/tools/mcp/mcp-tool-listing.js';
import { contractServer } from '../../support/mcp-contract-server.mjs';
import { statefulHttpServer } from '../../support/mcp-servers.js';
import { describeToolProviderContract } from '../tool-provider.contract.js';

describeToolProviderContract('mcp-http', async ({ callMs }) => {
  const web = await statefulHttpServer(() => contractServer());
  return {
    provider: createMcpProvider(
      { name: 'contract', kind: 'http', url: web.url, headers: {} },
      { timeouts: { callMs } },
    ),
    nameOf: (tool) => mcpToolName('contract', tool),
    close: web.stop,
  };
});
