import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/model.js';
import type { StandIn } from '../../src/testing/index.js';
import {
  type AdapterHarness,
  adapterFor,
  ask,
  CLOCK,
  callsOf,
  collect,
  finishOf,
  standInFor,
  textOf,
  WEATHER,
} from '../support/provider-harness.js';
import { describeCorpus } from './adapter-corpus.contract.js';
import { describeRetries } from './adapter-retries.contract.js';

/** A stored history with a tool call and texts that are only whitespace. */
const WHITESPACE_HISTORY: ChatMessage[] = [
  { role: 'user', content: 'what time is it?' },
  { role: 'assistant', content: '\n\n', toolCalls: [{ id: 'call1', name: 'get_time', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'call1', name: 'get_time', content: '12:00', isError: false },
  { role: 'assistant', content: ' ' },
  { role: 'user', content: 'and now?' },
];

/** The same cases for every adapter, on its real SDK against its loopback stand-in. */
export function describeAdapterContract(harness: AdapterHarness): void {
  describe(`${harness.label} adapter contract`, () => {
    let standIn: StandIn;
    beforeAll(async () => {
      standIn = await standInFor(harness);
    });
    afterAll(() => standIn.close());
    beforeEach(() => standIn.reset());

    it('answers a plain text turn (not streamed)', async () => {
      standIn.push({ text: 'Hello from the stand-in.' });
      const events = await collect(adapterFor(harness, standIn, { stream: false }).stream(ask('hi')));
      expect(textOf(events)).toBe('Hello from the stand-in.');
      expect(finishOf(events).stopReason).toBe('end_turn');
      expect(standIn.requests).toHaveLength(1);
      expect(standIn.requests[0]?.stream).toBe(false);
      expect(standIn.requests[0]?.system).toBe('You are a test assistant.');
      expect(standIn.requests[0]?.tools).toEqual([WEATHER, CLOCK]);
    });

    it('streams a turn as several text deltas before the finish', async () => {
      standIn.push({ text: 'A streamed answer arrives in pieces.', chunkSize: 5 });
      const events = await collect(adapterFor(harness, standIn).stream(ask('stream please')));
      const deltas = events.filter((e) => e.type === 'text-delta');
      expect(deltas.length).toBeGreaterThan(3);
      expect(textOf(events)).toBe('A streamed answer arrives in pieces.');
      expect(events.indexOf(finishOf(events))).toBe(events.length - 1);
      expect(standIn.requests[0]?.stream).toBe(true);
    });

    for (const stream of [true, false]) {
      it(`assembles one tool call (${stream ? 'streamed' : 'whole'})`, async () => {
        standIn.push({
          toolCalls: [{ name: 'get_weather', arguments: { city: 'Zürich "old town"' } }],
          chunkSize: 3,
        });
        const events = await collect(adapterFor(harness, standIn, { stream }).stream(ask('weather?')));
        const [call] = callsOf(events);
        expect(callsOf(events)).toHaveLength(1);
        expect(call?.name).toBe('get_weather');
        expect(JSON.parse(call?.arguments ?? '')).toEqual({ city: 'Zürich "old town"' });
        expect(call?.id).toMatch(/\S/);
        expect(finishOf(events).stopReason).toBe('tool_use');
      });
    }

    it('keeps parallel tool calls apart, in order, with distinct ids', async () => {
      standIn.push({
        text: 'Checking three things.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Oslo' } },
          { name: 'get_time' },
          { name: 'get_weather', arguments: { city: 'Lima' } },
        ],
        chunkSize: 4,
      });
      const events = await collect(adapterFor(harness, standIn).stream(ask('three')));
      const calls = callsOf(events);
      expect(calls.map((c) => c.name)).toEqual(['get_weather', 'get_time', 'get_weather']);
      expect(calls.map((c) => JSON.parse(c.arguments))).toEqual([{ city: 'Oslo' }, {}, { city: 'Lima' }]);
      expect(new Set(calls.map((c) => c.id)).size).toBe(3);
      expect(textOf(events)).toBe('Checking three things.');
    });

    it('sends tool results back in the family form and the model reads them', async () => {
      standIn.push(
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }, { name: 'get_time' }] },
        { echo: 'lastToolResult' },
      );
      const adapter = adapterFor(harness, standIn);
      const first = callsOf(await collect(adapter.stream(ask('weather and time'))));
      const history: ChatMessage[] = [
        { role: 'user', content: 'weather and time' },
        {
          role: 'assistant',
          content: '',
          // as the runtime stores them: a provider's signature goes back with its call
          toolCalls: first.map(({ type: _event, ...call }) => call),
        },
        {
          role: 'tool',
          toolCallId: first[0]?.id ?? '',
          name: 'get_weather',
          content: 'Sunny, 21 C',
          isError: false,
        },
        {
          role: 'tool',
          toolCallId: first[1]?.id ?? '',
          name: 'get_time',
          content: 'clock unavailable',
          isError: true,
        },
      ];
      const second = await collect(adapter.stream({ ...ask(''), messages: history }));
      expect(textOf(second)).toBe('clock unavailable');
      expect(first.every((c) => c.signature !== undefined)).toBe(harness.mode === 'gemini');
      const seen = standIn.requests[1];
      expect(seen?.outcome.kind).toBe('answered');
      const results = seen?.messages.filter((m) => m.role === 'tool');
      expect(results?.map((r) => r.role === 'tool' && [r.toolCallId, r.name, r.content])).toEqual([
        [first[0]?.id, 'get_weather', 'Sunny, 21 C'],
        [first[1]?.id, 'get_time', 'clock unavailable'],
      ]);
      // OpenAI's wire has no error flag; Anthropic and Bedrock carry one
      const flags = results?.map((r) => r.role === 'tool' && r.isError);
      expect(flags).toEqual(harness.family === 'openai' ? [false, false] : [false, true]);
    });

    it('sends a history whose stored texts are only whitespace in a form the provider accepts', async () => {
      standIn.push({ echo: 'lastToolResult' });
      const request = { ...ask(''), messages: WHITESPACE_HISTORY };
      const events = await collect(adapterFor(harness, standIn).stream(request));
      expect(standIn.requests[0]?.outcome.kind).toBe('answered');
      expect(textOf(events)).toBe('12:00');
    });

    it('sends earlier tool calls in a form the provider accepts on a call that offers no tools', async () => {
      standIn.push({ text: 'Still noon.' });
      const request = { ...ask('', []), messages: WHITESPACE_HISTORY };
      const events = await collect(adapterFor(harness, standIn).stream(request));
      expect(standIn.requests[0]?.outcome.kind).toBe('answered');
      expect(textOf(events)).toBe('Still noon.');
      expect(standIn.requests[0]?.rawBody).toContain('12:00');
    });

    for (const [raw, meaning] of Object.entries(harness.stopTable)) {
      it(`maps the stop value "${raw}" to ${meaning}`, async () => {
        standIn.push({ text: 'done', rawStopReason: raw });
        const finish = finishOf(await collect(adapterFor(harness, standIn).stream(ask('stop'))));
        expect(finish.rawStopReason).toBe(raw);
        expect(finish.stopReason).toBe(meaning);
      });
    }

    for (const stream of [true, false]) {
      it(`reports usage (${stream ? 'streamed' : 'whole'})`, async () => {
        standIn.push({ text: 'counted', usage: { inputTokens: 1234, outputTokens: 56 } });
        const finish = finishOf(await collect(adapterFor(harness, standIn, { stream }).stream(ask('count'))));
        expect(finish.usage).toEqual({ inputTokens: 1234, outputTokens: 56 });
      });
    }

    for (const stream of [true, false]) {
      it(`counts prompt tokens read from or written to the cache as input (${stream ? 'streamed' : 'whole'})`, async () => {
        const usage = { inputTokens: 5000, outputTokens: 7, cacheReadTokens: 4000, cacheWriteTokens: 900 };
        standIn.push({ text: 'cached', usage });
        const finish = finishOf(await collect(adapterFor(harness, standIn, { stream }).stream(ask('cache'))));
        expect(finish.usage).toEqual({ inputTokens: 5000, outputTokens: 7 });
      });
    }

    describeRetries(harness, () => standIn);

    if (harness.corpusProviders.length > 0) describeCorpus(harness, () => standIn);
  });
}
