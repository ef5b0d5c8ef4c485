import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, inProcessProvider } from '../../src/tools/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a turn through the real SDKs and the stand-ins', () => {
  for (const family of ['openai', 'anthropic', 'bedrock'] as const) {
    it(`${family}: runs a tool call and answers with its result`, async () => {
      const counts: RunCounts = new Map();
      h = await startHarness({
        family,
        providers: [demoProvider(counts)],
        script: [
          { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
          { echo: 'lastToolResult' },
        ],
      });
      const events = await collect(
        await (await h.runtime.session('s1')).send('What is the weather in Oslo?'),
      );
      expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'Sunny in Oslo.' });
      expect(counts.get('lookup_weather')).toBe(1);
      expect(events.map((e) => e.type)).toContain('tool-call-start');
      expect(h.standIn.requests).toHaveLength(2);
      expect(h.standIn.requests[0]?.tools.map((t) => t.name)).toContain('lookup_weather');
    });
  }

  for (const family of ['openai', 'anthropic', 'bedrock'] as const) {
    it(`${family}: says an answer was cut off at the output limit, or stopped by a content filter`, async () => {
      h = await startHarness({
        family,
        script: [
          { text: 'The first half of a long ans', stopReason: 'max_tokens' },
          { text: '', stopReason: 'content_filter' },
          { text: 'A whole answer.' },
        ],
      });
      const session = await h.runtime.session('s');
      const cut = turnEnd(await collect(await session.send('tell me everything')));
      expect(cut).toMatchObject({ status: 'limit', errorCode: 'output_limit' });
      expect(cut.message).toContain("cut off at the model's output limit");
      const filtered = turnEnd(await collect(await session.send('and more')));
      expect(filtered).toMatchObject({ status: 'failed', errorCode: 'content_filtered' });
      expect(turnEnd(await collect(await session.send('once more')))).toMatchObject({
        status: 'done',
        message: 'A whole answer.',
      });
    });
  }

  it('keeps the conversation in SQLite: the next turn sends the earlier messages', async () => {
    h = await startHarness({ providers: [demoProvider()], script: [{ text: 'Hello!' }, { text: 'Again.' }] });
    const session = await h.runtime.session('s1');
    await collect(await session.send('Hi'));
    await collect(await session.send('And again'));
    const second = h.standIn.requests[1];
    expect(second?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('runs calls that need no approval side by side and reports each', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [
        {
          toolCalls: [
            { name: 'lookup_weather', arguments: { city: 'Oslo' } },
            { name: 'lookup_weather', arguments: { city: 'Rome' } },
          ],
        },
        { text: 'Both done.' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s1')).send('weather in Oslo and Rome'));
    expect(
      callEnds(events)
        .map((e) => e.content)
        .sort(),
    ).toEqual(['Sunny in Oslo.', 'Sunny in Rome.']);
    expect(counts.get('lookup_weather')).toBe(2);
    const results = h.standIn.requests[1]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(results).toHaveLength(2);
  });

  for (const family of ['openai', 'anthropic'] as const) {
    it(`${family}: sends the results of calls run side by side in the order the model made the calls`, async () => {
      const settled = async (tool: string): Promise<boolean> =>
        (await h?.runtime.options.store.listToolCalls({ sessionId: 's1' }))?.find((c) => c.tool === tool)
          ?.status === 'done';
      const slow = defineTool({
        name: 'read_slowly',
        description: 'Read the long report.',
        risk: 'safe',
        readOnly: true,
        // Ends only once the quick call beside it has been recorded.
        handler: async () => {
          while (!(await settled('read_quickly'))) await new Promise((r) => setTimeout(r, 5));
          return 'the long report';
        },
      });
      const quick = defineTool({
        name: 'read_quickly',
        description: 'Read the short note.',
        risk: 'safe',
        readOnly: true,
        handler: () => 'the short note',
      });
      h = await startHarness({
        family,
        providers: [inProcessProvider({ name: 'reading', tools: [slow, quick] })],
        script: [
          {
            toolCalls: [
              { name: 'read_slowly', arguments: {} },
              { name: 'read_quickly', arguments: {} },
            ],
          },
          { text: 'Read both.' },
        ],
      });
      await collect(await (await h.runtime.session('s1')).send('read the report and the note'));
      const stored = (await h.runtime.options.store.listMessages('s1')).filter(
        (m) => m.message.role === 'tool',
      );
      expect(stored.map((m) => m.message.content)).toEqual(['the short note', 'the long report']);
      const sent = h.standIn.requests[1]?.messages.filter((m) => m.role === 'tool') ?? [];
      expect(sent.map((m) => m.content)).toEqual(['the long report', 'the short note']);
    });
  }

  it('tells the model to re-send arguments that are not JSON, and runs nothing', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [
        { toolCalls: [{ name: 'lookup_weather', arguments: '{"city": "Oslo"' }] },
        { echo: 'lastToolResult' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s1')).send('weather'));
    expect(turnEnd(events).message).toMatch(/not valid JSON/);
    expect(callEnds(events)[0]).toMatchObject({ notRun: 'unreadable_arguments', isError: true });
    expect(counts.get('lookup_weather')).toBeUndefined();
  });

  it('replays a call whose arguments came fenced or encoded twice with the arguments it ran with', async () => {
    const twice = JSON.stringify(JSON.stringify({ city: 'Oslo' }));
    const fenced = '```json\n{"city": "Rome"}\n```';
    for (const family of ['anthropic', 'bedrock'] as const) {
      h = await startHarness({
        family,
        providers: [demoProvider()],
        script: [
          { toolCalls: [{ name: 'lookup_weather', arguments: twice }] },
          { toolCalls: [{ name: 'lookup_weather', arguments: fenced }] },
          { text: 'done' },
        ],
      });
      const events = await collect(await (await h.runtime.session('s1')).send('weather'));
      expect(callEnds(events).map((e) => e.content)).toEqual(['Sunny in Oslo.', 'Sunny in Rome.']);
      // The history the provider reads back holds each call as the object that ran, not an empty one.
      const history = h.standIn.requests[2]?.messages ?? [];
      const replayed = history.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
      expect(replayed.map((c) => JSON.parse(c.arguments))).toEqual([{ city: 'Oslo' }, { city: 'Rome' }]);
      await h.close();
      h = undefined;
    }
  });

  it('ends a turn the provider fails with a clear sentence', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      script: [{ error: { status: 500, message: 'upstream broke' } }],
    });
    const end = turnEnd(await collect(await (await h.runtime.session('s1')).send('hi')));
    expect(end.status).toBe('failed');
    expect(end.message).toMatch(/^The model provider .+ answered HTTP 500: upstream broke/);
    expect(end.message.match(/500/g)).toHaveLength(1);
  });

  it('says an answer was cut short on the way, without blaming the address', async () => {
    h = await startHarness({
      script: [{ text: 'A long answer that gets cut', cutOff: 'end', chunkSize: 4 }],
    });
    const end = turnEnd(await collect(await (await h.runtime.session('s1')).send('hi')));
    expect(end.status).toBe('failed');
    expect(end.message).toMatch(
      /^The call to the model provider \(.+\) failed: The answer from .+ stopped before it was complete/,
    );
  });

  it("lets go of the caller's signal when a turn ends, so one signal can serve many turns", async () => {
    h = await startHarness({ script: [{ text: 'one' }, { text: 'two' }] });
    const shutdown = new AbortController();
    const session = await h.runtime.session('s1');
    await collect(await session.send('hi', { signal: shutdown.signal }));
    await collect(await session.send('again', { signal: shutdown.signal }));
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  it('knows no agent by the name of an inherited property (toString)', async () => {
    h = await startHarness({ script: [{ text: 'never reached' }], agents: {} });
    await expect((await h.runtime.session('s1', { agent: 'toString' })).send('hi')).rejects.toThrow(
      'no agent named "toString"; the configuration defines none',
    );
  });

  it('says how long a rate limit asks to wait, when it asks for longer than toolseam waits itself', async () => {
    h = await startHarness({ script: [{ error: { status: 429, message: 'slow down', retryAfter: 45 } }] });
    const end = turnEnd(await collect(await (await h.runtime.session('s1')).send('hi')));
    expect(end).toMatchObject({ status: 'failed' });
    expect(end.message).toContain('It asks to wait 45 s before trying again.');
  });
});
