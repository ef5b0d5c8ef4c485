import { resolve } from 'node:path';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import { describeToolProviderContract } from '../tool-provider.contract.js';

const folder = resolve(import.meta.dirname, '..', '..', 'support', 'contract-app');

describeToolProviderContract('app', async () => ({
  provider: await loadApp(folder),
  nameOf: (tool) => tool,
}));
