import { defineTool } from '../../../src/tools/fields/define-tool.js';
import { field } from '../../../src/tools/fields/field.js';
import { inProcessProvider } from '../../../src/tools/fields/in-process-provider.js';
import { contractTools } from '../../support/contract-tools.mjs';
import { describeToolProviderContract } from '../tool-provider.contract.js';

// The built-ins are in-process providers of defined tools, the platform's own.
describeToolProviderContract('built-in', async () => ({
  provider: inProcessProvider({
    name: 'contract',
    own: true,
    group: { key: 'contract', own: true, purpose: 'The tool-provider contract.' },
    tools: contractTools({ defineTool, field }),
  }),
  nameOf: (tool) => tool,
}));
