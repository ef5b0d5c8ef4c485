import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest, WireTool } from '../../src/core/model.js';
import { anthropicBodyBytes } from '../../src/providers/anthropic/anthropic-body-bytes.js';
import {
  type AnthropicForms,
  anthropicForms,
  anthropicMessageForms,
  toAnthropicRequest,
} from '../../src/providers/anthropic/anthropic-request.js';
import type { StandIn } from '../../src/testing/index.js';
import { CountedFrozen } from '../support/counted-frozen.js';
import { type AdapterHarness, adapterFor, ask, collect, standInFor } from '../support/provider-harness.js';

const OPTIONS = { model: 'claude-test', stream: true, defaultMaxTokens: 256 };
const TOOL: WireTool = {
  name: 'get_time',
  description: 'The time in a city’s zone…',
  parameters: { type: 'object' },
};

function request(messages: readonly ChatMessage[], tools: readonly WireTool[]): ModelRequest {
  return { system: 'Answer briefly — “exactly”.', messages, tools };
}

/** The body as the API reads it, its messages' blocks kept in `cache`. */
function sent(messages: readonly ChatMessage[], cache: AnthropicForms, tools = [TOOL]): unknown {
  const req = request(messages, tools);
  const forms = anthropicMessageForms(messages, tools.length === 0, cache);
  return JSON.parse(
    anthropicBodyBytes(toAnthropicRequest(req, OPTIONS, forms), forms, cache).toString('utf8'),
  );
}

/** The body made from scratch (what the SDK would serialize). */
function fresh(messages: readonly ChatMessage[], tools = [TOOL]): unknown {
  return JSON.parse(JSON.stringify(toAnthropicRequest(request(messages, tools), OPTIONS)));
}

function call(id: string, args = '{"zone":"UTC"}'): ChatMessage {
  return { role: 'assistant', content: 'Looking…', toolCalls: [{ id, name: 'get_time', arguments: args }] };
}

function result(id: string, content: string, isError = false): ChatMessage {
  return { role: 'tool', toolCallId: id, name: 'get_time', content, isError };
}

describe('Anthropic request bytes from kept message blocks', () => {
  it('read only what follows a frozen head the last request listed, ids that do not fit and tools told as text included', () => {
    const { frozen, readsOf } = new CountedFrozen();
    for (const tools of [[TOOL], []]) {
      const cache = anthropicForms();
      const history: ChatMessage[] = [frozen({ role: 'user', content: 'first question' })];
      for (let round = 1; round <= 60; round += 1) {
        // Another provider's ids (which Anthropic refuses, so every id is mapped) for a while.
        const id = round >= 20 && round < 25 ? `functions.get_time:${round}` : `toolu_${round}`;
        if (round % 4 === 0) history.push(frozen({ role: 'assistant', content: '\n\n' }));
        if (round % 3 === 0) history.push(frozen({ role: 'user', content: `question ${round}` }));
        history.push(frozen(call(id)), frozen(result(id, `${round}:00`)));
        if (round === 30) history[2] = frozen(result('toolu_1', 'replaced far back'));
        const messages = round === 45 ? history.slice(0, -3) : history;
        expect(sent(messages, cache, tools)).toEqual(fresh(messages, tools));
      }
      // The ids that did not fit are still in the history: every message is read again.
      expect(readsOf(() => sent(history, cache, tools)).reads).toBeGreaterThan(100);

      const clean: ChatMessage[] = [frozen({ role: 'user', content: 'a new conversation' })];
      for (let round = 1; round <= 40; round += 1) {
        clean.push(frozen(call(`toolu_${round}`)), frozen(result(`toolu_${round}`, `${round}:00`)));
        sent(clean, cache, tools);
      }
      clean.push(frozen({ role: 'user', content: 'one more' }));
      const { value: body, reads } = readsOf(() => sent(clean, cache, tools));
      expect(body).toEqual(fresh(clean, tools));
      expect(reads).toBeLessThan(10);
      // Told as text or not, a head listed one way is not taken the other.
      const other = tools.length === 0 ? [TOOL] : [];
      expect(sent(clean, cache, other)).toEqual(fresh(clean, other));
    }
  });

  it('read a message that is not frozen again on every request', () => {
    const cache = anthropicForms();
    const loose = { role: 'user' as const, content: 'first words' };
    const history: ChatMessage[] = [Object.freeze({ role: 'user', content: 'hi' }), loose];
    sent(history, cache);
    loose.content = 'second words';
    history.push(Object.freeze({ role: 'assistant', content: 'noted' }));
    const body = sent(history, cache);
    expect(body).toEqual(fresh(history));
    expect(JSON.stringify(body)).toContain('second words');
  });

  it('send the JSON a body made from scratch has, turns grouped and blank messages left out', () => {
    const cache = anthropicForms();
    const history: ChatMessage[] = [
      { role: 'user', content: 'Wie spät ist es in 東京? 🕐' },
      { role: 'assistant', content: '  ', toolCalls: [{ id: 'a', name: 'get_time', arguments: '{}' }] },
      result('a', 'noon'),
      { role: 'user', content: 'and in Oslo?' },
      { role: 'assistant', content: '\n\n' },
      call('functions.get_time:1'),
      result('functions.get_time:1', 'failed', true),
    ];
    for (let round = 0; round < 2; round += 1) {
      expect(sent(history, cache)).toEqual(fresh(history));
      expect(sent(history, cache, [])).toEqual(fresh(history, []));
    }
  });

  it('send a message changed in place or replaced as it is now, and a result that came later', () => {
    const cache = anthropicForms();
    const history: ChatMessage[] = [{ role: 'user', content: 'first words' }, call('c1')];
    sent(history, cache);
    (history[0] as { content: string }).content = 'second words';
    history[1] = call('c1', '{"zone":"CET"}');
    history.push(result('c1', '13:00'));
    const body = sent(history, cache);
    expect(body).toEqual(fresh(history));
    expect(JSON.stringify(body)).not.toContain('first words');
    (history[2] as { isError: boolean }).isError = true;
    expect(sent(history, cache)).toEqual(fresh(history));
  });

  it('send a conversation growing request after request as a body made from scratch, turns joined as they grow', () => {
    const cache = anthropicForms();
    const history: ChatMessage[] = [{ role: 'user', content: 'first question' }];
    for (let round = 1; round <= 120; round += 1) {
      history.push(call(`call_${round}`), result(`call_${round}`, `${round}:00`));
      // a result and the next question share a user turn; sometimes the answer comes in two replies
      if (round % 3 === 0) history.push({ role: 'user', content: `question ${round}` });
      if (round % 7 === 0) history.push({ role: 'assistant', content: `answer ${round}` });
      if (round % 11 === 0) history.push({ role: 'assistant', content: '   ' });
      if (round === 40) (history[5] as { content: string }).content = 'edited in place, far back';
      if (round === 60) history[8] = { role: 'assistant', content: 'replaced far back' };
      // a request that leaves the newest messages out, then one that has them again
      const messages = round === 80 ? history.slice(0, -3) : history;
      const tools = round === 90 ? [] : [TOOL];
      expect(sent(messages, cache, tools)).toEqual(fresh(messages, tools));
    }
    expect(JSON.stringify(sent(history, cache))).toContain('edited in place, far back');
  });

  it('send forms it did not make as they are now, in the same place of the same conversation', () => {
    const cache = anthropicForms();
    const history: ChatMessage[] = [{ role: 'user', content: 'hi' }, call('a'), result('a', 'noon')];
    const req = request(history, [TOOL]);
    const forms = anthropicMessageForms(history, false, cache);
    const own = {
      role: 'assistant' as const,
      blocks: [{ type: 'text' as const, text: 'a note of the host' }],
    };
    const withOwn = [
      ...forms,
      own,
      ...anthropicMessageForms([{ role: 'user', content: 'next' }], false, cache),
    ];
    const body = toAnthropicRequest(req, OPTIONS, withOwn);
    anthropicBodyBytes(body, withOwn, cache);
    own.blocks[0] = { type: 'text', text: 'the note changed' };
    const again = anthropicBodyBytes(toAnthropicRequest(req, OPTIONS, withOwn), withOwn, cache).toString(
      'utf8',
    );
    expect(JSON.parse(again)).toEqual(JSON.parse(JSON.stringify(toAnthropicRequest(req, OPTIONS, withOwn))));
    expect(again).not.toContain('a note of the host');
  });

  it('keep two sessions apart on one cache, and leave out what a history no longer holds', () => {
    const cache = anthropicForms();
    const a: ChatMessage[] = [{ role: 'user', content: 'A asks' }, call('c1'), result('c1', 'A: 9:00')];
    const b: ChatMessage[] = [{ role: 'user', content: 'B asks' }, call('c1'), result('c1', 'B: 17:00')];
    expect(sent(a, cache)).toEqual(fresh(a));
    expect(sent(b, cache)).toEqual(fresh(b));
    const compacted = [{ role: 'user' as const, content: 'summary' }, ...a.slice(1)];
    expect(sent(compacted, cache)).toEqual(fresh(compacted));
    expect(JSON.stringify(sent(compacted, cache))).not.toContain('A asks');
  });
});

const HARNESS: AdapterHarness = {
  label: 'Anthropic',
  family: 'anthropic',
  model: 'claude-test',
  corpusProviders: [],
  stopTable: {},
};

describe('an Anthropic adapter sending kept message blocks', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor(HARNESS);
  });
  afterAll(() => standIn.close());

  it('sends each request’s history as the API should read it, an edited message as edited', async () => {
    standIn.reset();
    standIn.push({ text: 'first' }, { text: 'second' });
    const adapter = adapterFor(HARNESS, standIn);
    const history: ChatMessage[] = [
      { role: 'user', content: 'Wie spät ist es in 東京? 🕐' },
      call('c1'),
      result('c1', '12:00'),
    ];
    await collect(adapter.stream({ ...ask(''), messages: history }));
    history[2] = result('c1', '13:00');
    history.push({ role: 'assistant', content: 'It is one.' }, { role: 'user', content: 'thanks' });
    await collect(adapter.stream({ ...ask(''), messages: history }));
    const second = standIn.requests[1]?.messages ?? [];
    expect(second.map((m) => m.content)).toEqual([
      history[0]?.content,
      'Looking…',
      '13:00',
      'It is one.',
      'thanks',
    ]);
  });
});

describe('Anthropic request bytes of the tools', () => {
  it('are the bytes JSON.stringify writes, messages first, then tools, then the rest, kept per schema', () => {
    const cache = anthropicForms();
    const other: WireTool = {
      name: 'find "it"',
      description: 'Backslash \\, tab \t, line\u2028separator, 中文 and 😀.',
      parameters: {
        type: 'object',
        properties: { q: { type: 'string', enum: ['a', '😀'] } },
        required: ['q'],
      },
    };
    const messages: ChatMessage[] = [{ role: 'user', content: 'what time is it?' }];
    for (const round of [1, 2]) {
      // The second round renames a tool around the same schema object: it is written again.
      const tools = round === 1 ? [TOOL, other] : [TOOL, { ...other, name: 'find_it' }];
      const forms = anthropicMessageForms(messages, false, cache);
      const body = toAnthropicRequest(request(messages, tools), OPTIONS, forms);
      const { messages: turns, tools: listed, ...rest } = body;
      const expected = JSON.stringify({ messages: turns, tools: listed, ...rest });
      expect(anthropicBodyBytes(body, forms, cache).toString('utf8')).toBe(expected);
    }
  });

  it('writes a tool of another form (a server tool) as it is', () => {
    const cache = anthropicForms();
    const messages: ChatMessage[] = [{ role: 'user', content: 'search' }];
    const forms = anthropicMessageForms(messages, false, cache);
    const body = toAnthropicRequest(request(messages, [TOOL]), OPTIONS, forms);
    const server = { type: 'web_search_20250305', name: 'web_search', max_uses: 2 } as const;
    const withServer = { ...body, tools: [...(body.tools ?? []), server] };
    const { messages: turns, tools: listed, ...rest } = withServer;
    expect(anthropicBodyBytes(withServer, forms, cache).toString('utf8')).toBe(
      JSON.stringify({ messages: turns, tools: listed, ...rest }),
    );
  });
});
