import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest, WireTool } from '../../src/core/model.js';
import { bedrockForms, toBedrockRequest } from '../../src/providers/bedrock/bedrock-request.js';
import type { StandIn } from '../../src/testing/index.js';
import { CountedFrozen } from '../support/counted-frozen.js';
import { type AdapterHarness, adapterFor, ask, collect, standInFor } from '../support/provider-harness.js';

const OPTIONS = { model: 'anthropic.claude-test', toolResultStatus: true, defaultMaxTokens: undefined };
const TOOL: WireTool = { name: 'get_time', description: 'The time.', parameters: { type: 'object' } };

const request = (messages: readonly ChatMessage[], tools: readonly WireTool[]): ModelRequest => ({
  system: 'Answer briefly.',
  messages,
  tools,
});

function call(id: string, args = '{"zone":"UTC"}'): ChatMessage {
  return { role: 'assistant', content: 'Looking…', toolCalls: [{ id, name: 'get_time', arguments: args }] };
}

function result(id: string, content: string): ChatMessage {
  return { role: 'tool', toolCallId: id, name: 'get_time', content, isError: false };
}

describe('Bedrock message blocks kept between requests', () => {
  it('give the input made from scratch, with and without tools, after edits in place and replacements', () => {
    const forms = bedrockForms();
    const history: ChatMessage[] = [
      { role: 'user', content: 'what time is it?' },
      call('functions.get_time:0'),
      result('functions.get_time:0', 'noon'),
    ];
    const same = (tools: readonly WireTool[]) =>
      expect(toBedrockRequest(request(history, tools), OPTIONS, forms)).toEqual(
        toBedrockRequest(request(history, tools), OPTIONS),
      );
    for (let round = 0; round < 2; round += 1) {
      same([TOOL]);
      same([]);
    }
    (history[0] as { content: string }).content = 'and in Oslo?';
    history[1] = call('functions.get_time:0', '{"zone":"CET"}');
    (history[2] as { isError: boolean }).isError = true;
    same([TOOL]);
    same([]);
    const withoutStatus = { ...OPTIONS, toolResultStatus: false };
    expect(toBedrockRequest(request(history, [TOOL]), withoutStatus, forms)).toEqual(
      toBedrockRequest(request(history, [TOOL]), withoutStatus),
    );
  });
});

describe('Bedrock message blocks of a frozen history', () => {
  it('are read only after the head the last request listed, and give the input made from scratch', () => {
    const { frozen, readsOf } = new CountedFrozen();
    const forms = bedrockForms();
    const withoutStatus = { ...OPTIONS, toolResultStatus: false };
    const history: ChatMessage[] = [frozen({ role: 'user', content: 'what time is it?' })];
    for (let round = 1; round <= 40; round += 1) {
      // Another provider's ids (which Converse refuses) for a while: every id is mapped then.
      const id = round >= 10 && round < 13 ? `functions.get_time:${round}` : `tooluse_${round}`;
      history.push(frozen(call(id)), frozen(result(id, `${round}:00`)));
      if (round % 3 === 0) history.push(frozen({ role: 'user', content: `and now? ${round}` }));
      for (const [options, tools] of [
        [OPTIONS, [TOOL]],
        [round % 5 === 0 ? withoutStatus : OPTIONS, round % 7 === 0 ? [] : [TOOL]],
      ] as const)
        expect(toBedrockRequest(request(history, tools), options, forms)).toEqual(
          toBedrockRequest(request(history, tools), options),
        );
    }
    const fresh: ChatMessage[] = [frozen({ role: 'user', content: 'a new conversation' })];
    for (let round = 1; round <= 30; round += 1) {
      fresh.push(frozen(call(`tooluse_${round}`)), frozen(result(`tooluse_${round}`, 'noon')));
      toBedrockRequest(request(fresh, [TOOL]), OPTIONS, forms);
    }
    fresh.push(frozen({ role: 'user', content: 'one more' }));
    const { value: input, reads } = readsOf(() => toBedrockRequest(request(fresh, [TOOL]), OPTIONS, forms));
    expect(input).toEqual(toBedrockRequest(request(fresh, [TOOL]), OPTIONS));
    expect(reads).toBeLessThan(10);
  });
});

const HARNESS: AdapterHarness = {
  label: 'Bedrock',
  family: 'bedrock',
  model: 'anthropic.claude-test',
  corpusProviders: [],
  stopTable: {},
};

describe('a Bedrock adapter sending kept message blocks', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor(HARNESS);
  });
  afterAll(() => standIn.close());

  it('sends each request’s history as Converse should read it, an edited message as edited', async () => {
    standIn.reset();
    standIn.push({ text: 'first' }, { text: 'second' });
    const adapter = adapterFor(HARNESS, standIn);
    const history: ChatMessage[] = [{ role: 'user', content: 'time?' }, call('c1'), result('c1', '12:00')];
    await collect(adapter.stream({ ...ask(''), messages: history }));
    history[2] = result('c1', '13:00');
    history.push({ role: 'assistant', content: 'It is one.' }, { role: 'user', content: 'thanks' });
    await collect(adapter.stream({ ...ask(''), messages: history }));
    const second = standIn.requests[1]?.messages ?? [];
    expect(second.map((m) => m.content)).toEqual(['time?', 'Looking…', '13:00', 'It is one.', 'thanks']);
  });
});
