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
});
