import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/model.js';
import { UNANSWERED_RESULTS_NOTE } from '../../src/providers/openai/openai-request.js';
import type { StandIn } from '../../src/testing/index.js';
import { type AdapterHarness, adapterFor, ask, collect, standInFor } from '../support/provider-harness.js';

const HARNESS: AdapterHarness = {
  label: 'Mistral',
  family: 'openai',
  model: 'mistral-test',
  corpusProviders: [],
  stopTable: {},
};

/** A turn that stopped after its tool ran (e.g. at the model-call limit), then the user's next message. */
const HISTORY: ChatMessage[] = [
  { role: 'user', content: 'what time is it?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'aB3dE5gH7', name: 'get_time', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'aB3dE5gH7', name: 'get_time', content: '12:00', isError: false },
  { role: 'user', content: 'go on' },
];

describe('message order on the Mistral wire', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor(HARNESS);
  });
  afterAll(() => standIn.close());

  for (const provider of ['mistral', 'openai'] as const) {
    it(`${provider}: a user message after tool results ${provider === 'mistral' ? 'gets an assistant message before it' : 'follows them directly'}`, async () => {
      standIn.reset();
      standIn.push({ text: 'It was noon.' });
      const adapter = adapterFor(HARNESS, standIn, { provider });
      await collect(adapter.stream({ ...ask(''), messages: HISTORY }));
      const sent = standIn.requests[0]?.messages ?? [];
      const roles = sent.map((m) => m.role);
      if (provider === 'mistral') {
        expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
        expect(sent[3]).toMatchObject({ role: 'assistant', content: UNANSWERED_RESULTS_NOTE });
      } else {
        expect(roles).toEqual(['user', 'assistant', 'tool', 'user']);
      }
    });
  }

  for (const provider of ['mistral', 'openai'] as const) {
    it(`${provider}: an assistant message with neither text nor tool calls is left out`, async () => {
      standIn.reset();
      standIn.push({ text: 'Still noon.' });
      const blank: ChatMessage[] = [
        ...HISTORY.slice(0, 3),
        { role: 'assistant', content: '' },
        ...HISTORY.slice(3),
      ];
      await collect(adapterFor(HARNESS, standIn, { provider }).stream({ ...ask(''), messages: blank }));
      const body = standIn.requests[0]?.body as { messages: { role: string; content?: unknown }[] };
      const sent = body.messages.filter((m) => m.role !== 'system');
      expect(sent.map((m) => m.role)).toEqual(
        provider === 'mistral'
          ? ['user', 'assistant', 'tool', 'assistant', 'user']
          : ['user', 'assistant', 'tool', 'user'],
      );
      expect(sent.filter((m) => m.role === 'assistant' && !m.content && !('tool_calls' in m))).toEqual([]);
    });
  }
});

describe('tool-call ids on the Mistral wire', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor(HARNESS);
  });
  afterAll(() => standIn.close());

  /** A session that ran on other providers first: their ids, and one already in Mistral's form. */
  const MOVED: ChatMessage[] = [
    { role: 'user', content: 'time and weather?' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_time', arguments: '{}' },
        { id: 'call_3f2a9c1d7e8b4a6f9c0d1e2f', name: 'get_weather', arguments: '{}' },
      ],
    },
    {
      role: 'tool',
      toolCallId: 'toolu_01A09q90qw90lq917835lq9',
      name: 'get_time',
      content: '12:00',
      isError: false,
    },
    {
      role: 'tool',
      toolCallId: 'call_3f2a9c1d7e8b4a6f9c0d1e2f',
      name: 'get_weather',
      content: 'sun',
      isError: false,
    },
    { role: 'assistant', content: '', toolCalls: [{ id: 'aB3dE5gH7', name: 'get_time', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'aB3dE5gH7', name: 'get_time', content: '12:01', isError: false },
    { role: 'assistant', content: 'Noon and sunny.' },
    { role: 'user', content: 'thanks' },
  ];

  interface SentMessage {
    readonly role: string;
    readonly tool_call_id?: string;
    readonly tool_calls?: { id: string }[];
  }

  async function sentIds(provider: 'mistral' | 'openai') {
    standIn.reset();
    standIn.push({ text: 'You are welcome.' });
    await collect(adapterFor(HARNESS, standIn, { provider }).stream({ ...ask(''), messages: MOVED }));
    const body = standIn.requests[0]?.body as { messages: SentMessage[] };
    const calls = body.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id));
    const results = body.messages.flatMap((m) => (m.tool_call_id === undefined ? [] : [m.tool_call_id]));
    return { calls, results };
  }

  it('mistral: every id is 9 letters and digits, one per call, its result carrying the same', async () => {
    const { calls, results } = await sentIds('mistral');
    expect(calls).toHaveLength(3);
    for (const id of calls) expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(new Set(calls).size).toBe(3);
    expect(results).toEqual(calls);
    expect(calls[2]).toBe('aB3dE5gH7');
  });

  it('openai: ids travel as they are', async () => {
    const { calls, results } = await sentIds('openai');
    expect(calls).toEqual(['toolu_01A09q90qw90lq917835lq9', 'call_3f2a9c1d7e8b4a6f9c0d1e2f', 'aB3dE5gH7']);
    expect(results).toEqual(calls);
  });
});
