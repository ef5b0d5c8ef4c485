import { afterEach, describe, expect, it } from 'vitest';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { callEnds, collect, type RuntimeHarness, startHarness } from '../support/runtime-harness.js';
import { memoryClient, textOf } from './serve-harness.js';

let h: RuntimeHarness | undefined;
let client: Awaited<ReturnType<typeof memoryClient>> | undefined;
afterEach(async () => {
  await client?.close();
  await h?.close();
  h = client = undefined;
});

describe('a field-spec tool on both surfaces', () => {
  it('refuses an over-limit call identically in a native turn and over MCP, before anyone is asked', async () => {
    const counts: RunCounts = new Map();
    const overLimit = { to: 'a@b.example', body: 'x'.repeat(2_001) };
    const tooLongCity = { city: 'x'.repeat(81) };
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [
        {
          toolCalls: [
            { name: 'send_email', arguments: overLimit },
            { name: 'lookup_weather', arguments: tooLongCity },
          ],
        },
        { echo: 'lastToolResult' },
      ],
    });
    // the native turn: the model's calls on the stand-in, through the real SDK
    const events = await collect(await (await h.runtime.session()).send('mail Ana'));
    expect(events.some((e) => e.type === 'approval-request')).toBe(false);
    const [mailInTurn, weatherInTurn] = callEnds(events);
    expect(mailInTurn?.isError).toBe(true);
    expect(weatherInTurn?.isError).toBe(true);

    // the MCP surface, on the same runtime: a client that would approve anything if asked
    client = await memoryClient(h.runtime, undefined, () => ({ action: 'accept', content: {} }));
    const mailOverMcp = await client.client.callTool({ name: 'send_email', arguments: overLimit });
    const weatherOverMcp = await client.client.callTool({ name: 'lookup_weather', arguments: tooLongCity });
    expect(mailOverMcp.isError).toBe(true);
    expect(weatherOverMcp.isError).toBe(true);
    expect(textOf(mailOverMcp)).toBe(mailInTurn?.content);
    expect(textOf(weatherOverMcp)).toBe(weatherInTurn?.content);
    expect(textOf(mailOverMcp)).toMatch(/2,?000/);
    expect(client.asked).toEqual([]);
    expect(counts.size).toBe(0);
  });
});
