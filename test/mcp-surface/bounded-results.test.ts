import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, inProcessProvider } from '../../src/tools/index.js';
import { memoryClient, servingRuntime, textOf } from './serve-harness.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const SECRET = 'tok-4f9a2c7e1b';

/** An app's tools that leak a secret, answer at length, and never answer. */
const unruly = inProcessProvider({
  name: 'unruly',
  app: 'unruly',
  group: { key: 'unruly', own: false, purpose: 'Tools that misbehave, for the tests.' },
  tools: [
    defineTool({
      name: 'leak',
      description: 'Tells a token.',
      risk: 'safe',
      handler: () => `the token is ${SECRET}`,
    }),
    defineTool({
      name: 'ramble',
      description: 'Talks at length.',
      risk: 'safe',
      handler: () => 'x'.repeat(5_000),
    }),
    defineTool({
      name: 'stall',
      description: 'Never answers.',
      risk: 'safe',
      handler: () => new Promise(() => {}),
    }),
  ],
});

describe('results served over MCP', () => {
  it('are redacted, bounded and held to their deadline as in a turn', async () => {
    const serving = await servingRuntime(
      {
        secrets: { API_TOKEN: { env: 'API_TOKEN' } },
        limits: { resultChars: 1_000 },
        toolTimeouts: { stall: 300 },
      },
      { tools: [unruly], env: { API_TOKEN: SECRET } },
    );
    closers.push(() => serving.close());
    const { client, close } = await memoryClient(serving.runtime);
    closers.push(close);

    const leaked = textOf(await client.callTool({ name: 'leak', arguments: {} }));
    expect(leaked).toContain('the token is');
    expect(leaked).not.toContain(SECRET);

    const rambled = textOf(await client.callTool({ name: 'ramble', arguments: {} }));
    expect(rambled.length).toBeLessThanOrEqual(1_000);
    expect(rambled).toMatch(/characters left out/);
    // an MCP client cannot call the runtime's own tool_result_read: the cut names nothing it cannot call
    expect(rambled).not.toContain('tool_result_read');

    const stalled = await client.callTool({ name: 'stall', arguments: {} });
    expect(stalled.isError).toBe(true);
    expect(textOf(stalled)).toMatch(/stall/);
  });
});
