import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/model.js';
import type { StandIn } from '../../../src/testing/index.js';
import {
  type AdapterHarness,
  adapterFor,
  ask,
  collect,
  standInFor,
  textOf,
} from '../../support/provider-harness.js';

const KIMI_ID = 'functions.get_weather:0';
const LONG_ID = `call_${'x'.repeat(70)}`;

/** A session whose earlier turns ran elsewhere: Kimi's ids, one past 64 characters, one that fits. */
const MOVED: ChatMessage[] = [
  { role: 'user', content: 'weather and time?' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: KIMI_ID, name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { id: LONG_ID, name: 'get_time', arguments: '{}' },
      { id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_time', arguments: '{}' },
    ],
  },
  { role: 'tool', toolCallId: KIMI_ID, name: 'get_weather', content: 'sun', isError: false },
  { role: 'tool', toolCallId: LONG_ID, name: 'get_time', content: '12:00', isError: false },
  {
    role: 'tool',
    toolCallId: 'toolu_01A09q90qw90lq917835lq9',
    name: 'get_time',
    content: '12:00',
    isError: false,
  },
  { role: 'user', content: 'thanks' },
];

const HARNESSES: AdapterHarness[] = [
  { label: 'Anthropic', family: 'anthropic', model: 'claude-test', corpusProviders: [], stopTable: {} },
  {
    label: 'Bedrock',
    family: 'bedrock',
    model: 'anthropic.claude-test-v1:0',
    corpusProviders: [],
    stopTable: {},
  },
];

for (const harness of HARNESSES) {
  describe(`${harness.label}: tool-call ids from another provider's turns`, () => {
    let standIn: StandIn;
    beforeAll(async () => {
      standIn = await standInFor(harness);
    });
    afterAll(() => standIn.close());

    it('travel as ids the API takes, the same for each call and its result', async () => {
      standIn.push({ text: 'You are welcome.' });
      const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 0 } });
      const events = await collect(adapter.stream({ ...ask(''), messages: MOVED }));
      expect(textOf(events)).toBe('You are welcome.');
      const sent = standIn.requests[0]?.messages ?? [];
      const calls = sent.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
      const results = sent.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
      expect(calls).toHaveLength(3);
      for (const call of calls) expect(call.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(new Set(calls.map((c) => c.id)).size).toBe(3);
      expect(results).toEqual(calls.map((c) => c.id));
      // an id that already fits travels as it is
      expect(calls[2]?.id).toBe('toolu_01A09q90qw90lq917835lq9');
    });
  });
}
