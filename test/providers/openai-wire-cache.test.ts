import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest, WireTool } from '../../src/core/model.js';
import { openAIBodyBytes } from '../../src/providers/openai/openai-body-bytes.js';
import { type OpenAIRequestOptions, toOpenAIRequest } from '../../src/providers/openai/openai-request.js';
import { toOpenAITool } from '../../src/providers/openai/openai-tool.js';
import { OpenAIWireCache } from '../../src/providers/openai/openai-wire-cache.js';
import { shortCallIds } from '../../src/providers/openai/short-call-ids.js';
import type { StandIn } from '../../src/testing/index.js';
import { CountedFrozen } from '../support/counted-frozen.js';
import { type AdapterHarness, adapterFor, ask, collect, standInFor } from '../support/provider-harness.js';

const OPTIONS: OpenAIRequestOptions = {
  model: 'gpt-test',
  stream: true,
  streamUsage: true,
  maxTokensField: 'max_tokens',
  defaultMaxTokens: 512,
  assistantAfterToolResults: false,
};
const MISTRAL: OpenAIRequestOptions = { ...OPTIONS, assistantAfterToolResults: true, shortCallIds: true };

const TOOL = {
  name: 'get_time',
  description: 'The time — in any city’s zone…',
  parameters: { type: 'object' },
};

function request(messages: readonly ChatMessage[], tools: readonly WireTool[] = [TOOL]): ModelRequest {
  return { system: 'Answer briefly; quote “exactly”.', messages, tools };
}

/** The body as the endpoint reads it, sent through `cache`. */
function sent(
  messages: readonly ChatMessage[],
  cache: OpenAIWireCache,
  options = OPTIONS,
  tools: readonly WireTool[] = [TOOL],
): unknown {
  const body = toOpenAIRequest(request(messages, tools), options, cache);
  return JSON.parse(openAIBodyBytes(body, cache).toString('utf8'));
}

/** The body made from scratch, with no cache (what the SDK would serialize). */
function fresh(
  messages: readonly ChatMessage[],
  options = OPTIONS,
  tools: readonly WireTool[] = [TOOL],
): unknown {
  return JSON.parse(JSON.stringify(toOpenAIRequest(request(messages, tools), options)));
}

function call(id: string): ChatMessage {
  return {
    role: 'assistant',
    content: '',
    toolCalls: [{ id, name: 'get_time', arguments: '{"zone":"UTC"}' }],
  };
}

function result(id: string, content: string): ChatMessage {
  return { role: 'tool', toolCallId: id, name: 'get_time', content, isError: false };
}

describe('the OpenAI wire cache', () => {
  it('sends the same JSON as a body made from scratch, non-Latin-1 text and signatures included', () => {
    const cache = new OpenAIWireCache();
    const history: ChatMessage[] = [
      { role: 'user', content: 'Wie spät ist es in 東京? 🕐' },
      {
        role: 'assistant',
        content: 'Let me look…',
        toolCalls: [
          { id: 'call_1', name: 'get_time', arguments: '{"zone":"Asia/Tokyo"}', signature: 'c2ln' },
        ],
      },
      result('call_1', '12:00 — noon'),
      { role: 'assistant', content: 'It is noon “there”.' },
    ];
    expect(sent(history, cache)).toEqual(fresh(history));
    // the second request reuses every message's bytes and still sends the same
    expect(sent(history, cache)).toEqual(fresh(history));
  });

  it('reuses a message’s form while the history keeps the message', () => {
    const cache = new OpenAIWireCache();
    const history: ChatMessage[] = [{ role: 'user', content: 'hi' }, call('call_1')];
    const first = toOpenAIRequest(request(history), OPTIONS, cache);
    const second = toOpenAIRequest(request([...history, result('call_1', '12:00')]), OPTIONS, cache);
    expect(second.messages[1]).toBe(first.messages[1]);
    expect(second.messages[2]).toBe(first.messages[2]);
  });

  it('reuses the system message while its text stays the same, and sends a changed prompt as it is now', () => {
    const cache = new OpenAIWireCache();
    const history: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    const first = toOpenAIRequest(request(history), OPTIONS, cache);
    const second = toOpenAIRequest(request(history), OPTIONS, cache);
    expect(second.messages[0]).toBe(first.messages[0]);
    expect(sent(history, cache)).toEqual(fresh(history));
    const changed = { system: 'Answer at length; the “prompt” changed.', messages: history, tools: [TOOL] };
    const body = toOpenAIRequest(changed, OPTIONS, cache);
    expect(JSON.parse(openAIBodyBytes(body, cache).toString('utf8'))).toEqual(
      JSON.parse(JSON.stringify(toOpenAIRequest(changed, OPTIONS))),
    );
    expect(openAIBodyBytes(body, cache).toString('utf8')).not.toContain('briefly');
    // back to the first prompt: its text is sent again, not the changed one's
    expect(sent(history, cache)).toEqual(fresh(history));
  });

  it('reuses a tool made again around the same parameters, and keeps apart tools sharing them', () => {
    const cache = new OpenAIWireCache();
    const history: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    const first = toOpenAIRequest(request(history, [{ ...TOOL }]), OPTIONS, cache);
    const again = toOpenAIRequest(request(history, [{ ...TOOL }]), OPTIONS, cache);
    expect(again.tools?.[0]).toBe(first.tools?.[0]);
    // another name or description on the same parameters object is a tool of its own
    const renamed = { ...TOOL, name: 'get_date' };
    const described = { ...TOOL, description: 'The date in any zone.' };
    const tools = [{ ...TOOL }, renamed, described];
    expect(sent(history, cache, OPTIONS, tools)).toEqual(fresh(history, OPTIONS, tools));
    const body = JSON.stringify(toOpenAIRequest(request(history, tools), OPTIONS, cache).tools);
    const wire = JSON.parse(body) as { function: { name: string; description: string } }[];
    expect(wire.map((t) => t.function.name)).toEqual(['get_time', 'get_date', 'get_time']);
    expect(wire[2]?.function.description).toBe('The date in any zone.');
    expect(sent(history, cache, OPTIONS, [{ ...TOOL }])).toEqual(fresh(history, OPTIONS, [TOOL]));
  });

  it('sends a message replaced in the history as it is now, not as it was', () => {
    const cache = new OpenAIWireCache();
    const history: ChatMessage[] = [{ role: 'user', content: 'what time is it in Paris?' }];
    sent(history, cache);
    history[0] = { role: 'user', content: 'what time is it in Oslo?' };
    expect(sent(history, cache)).toEqual(fresh(history));
  });

  it('sends a message changed in place as it is now', () => {
    const cache = new OpenAIWireCache();
    const edited = { role: 'user' as const, content: 'first words' };
    const history: ChatMessage[] = [edited, call('call_1'), result('call_1', '12:00')];
    sent(history, cache);
    edited.content = 'second words';
    const calls = (history[1] as unknown as { toolCalls: { arguments: string }[] }).toolCalls;
    (calls[0] as { arguments: string }).arguments = '{"zone":"CET"}';
    (history[2] as { content: string }).content = '13:00';
    const body = sent(history, cache) as { messages: { content: string | null }[] };
    expect(body).toEqual(fresh(history));
    expect(JSON.stringify(body)).not.toContain('first words');
    expect(JSON.stringify(body)).not.toContain('12:00');
  });

  it('leaves out messages compacted away or removed, and adds a tool result that came later', () => {
    const cache = new OpenAIWireCache();
    const long: ChatMessage[] = [
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: 'old answer' },
      { role: 'user', content: 'what time is it?' },
      call('call_2'),
    ];
    sent(long, cache);
    const compacted: ChatMessage[] = [{ role: 'user', content: 'summary of before' }, ...long.slice(2)];
    const body = sent(compacted, cache);
    expect(body).toEqual(fresh(compacted));
    expect(JSON.stringify(body)).not.toContain('old answer');

    const withResult = [...compacted, result('call_2', 'ten past two')];
    const later = sent(withResult, cache) as { messages: { role: string; content: string | null }[] };
    expect(later.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_2', content: 'ten past two' });
  });

  it('sends a conversation growing request after request as a fresh body would, its earlier bytes in a few parts', () => {
    for (const options of [OPTIONS, MISTRAL]) {
      const cache = new OpenAIWireCache();
      const history: ChatMessage[] = [{ role: 'user', content: 'first question' }];
      for (let round = 1; round <= 120; round += 1) {
        history.push(call(`call_${round}`), result(`call_${round}`, `${round}:00`));
        if (round % 3 === 0) history.push({ role: 'user', content: `question ${round}` });
        if (round === 40) (history[5] as { content: string }).content = 'edited in place, far back';
        if (round === 60) history[8] = { role: 'assistant', content: 'replaced far back' };
        // a request that leaves the newest messages out, then one that has them again
        const messages = round === 80 ? history.slice(0, -4) : history;
        expect(sent(messages, cache, options)).toEqual(fresh(messages, options));
      }
      const body = toOpenAIRequest(request(history), options, cache);
      expect(body.messages.length).toBeGreaterThan(250);
      // The system message, and the conversation in a few parts: not a part per message.
      if (options === OPTIONS) expect(cache.listedMessages(body.messages).length).toBeLessThan(40);
      expect(JSON.stringify(sent(history, cache, options))).toContain('edited in place, far back');
    }
  });

  it('sends a message it did not make as that message is now, in the same place of the same conversation', () => {
    const cache = new OpenAIWireCache();
    const history: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      call('call_1'),
      result('call_1', '12:00'),
    ];
    const body = toOpenAIRequest(request(history), OPTIONS, cache);
    const own = { role: 'assistant' as const, content: 'a note of the host' };
    const messages = [...body.messages, own];
    openAIBodyBytes({ ...body, messages }, cache);
    own.content = 'the note changed';
    const again = JSON.parse(openAIBodyBytes({ ...body, messages }, cache).toString('utf8'));
    expect(again).toEqual(JSON.parse(JSON.stringify({ ...body, messages })));
    expect(JSON.stringify(again)).not.toContain('a note of the host');
  });

  it('keeps two sessions apart when one adapter serves both', () => {
    const cache = new OpenAIWireCache();
    const a: ChatMessage[] = [
      { role: 'user', content: 'session A asks' },
      call('call_1'),
      result('call_1', 'A: 9:00'),
    ];
    const b: ChatMessage[] = [
      { role: 'user', content: 'session B asks' },
      call('call_1'),
      result('call_1', 'B: 17:00'),
    ];
    for (let round = 0; round < 2; round += 1) {
      expect(sent(a, cache)).toEqual(fresh(a));
      expect(sent(b, cache)).toEqual(fresh(b));
    }
    expect(JSON.stringify(sent(b, cache))).not.toContain('A: 9:00');
  });

  it('sends each request’s own tools, a tool changed in place as it is now, and a request without tools', () => {
    const cache = new OpenAIWireCache();
    const history: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    const other: WireTool = {
      name: 'get_date',
      description: 'Today’s date.',
      parameters: { type: 'object' },
    };
    expect(sent(history, cache, OPTIONS, [TOOL, other])).toEqual(fresh(history, OPTIONS, [TOOL, other]));
    expect(sent(history, cache, OPTIONS, [other])).toEqual(fresh(history, OPTIONS, [other]));
    const changed = { ...other };
    sent(history, cache, OPTIONS, [changed]);
    (changed as { description: string }).description = 'The date where you are.';
    expect(sent(history, cache, OPTIONS, [changed])).toEqual(fresh(history, OPTIONS, [changed]));
    const none = sent(history, cache, OPTIONS, []) as Record<string, unknown>;
    expect(none).toEqual(fresh(history, OPTIONS, []));
    expect(none).not.toHaveProperty('tools');
    expect(sent([], cache)).toEqual(fresh([]));
  });

  it('maps only what follows a frozen head it mapped before, and sends what a fresh body would', () => {
    const { frozen, readsOf } = new CountedFrozen();
    const notes: OpenAIRequestOptions = { ...OPTIONS, assistantAfterToolResults: true };
    for (const options of [OPTIONS, notes, MISTRAL]) {
      const cache = new OpenAIWireCache();
      const history: ChatMessage[] = [frozen({ role: 'user', content: 'first question' })];
      for (let round = 1; round <= 60; round += 1) {
        // A question right after the last request's result: the head ends on that result, and the note
        // Mistral-like endpoints need goes between the two. Sometimes a blank reply (left out) first.
        if (round % 5 === 0) history.push(frozen({ role: 'assistant', content: ' ' }));
        if (round % 3 === 0) history.push(frozen({ role: 'user', content: `question ${round}` }));
        history.push(frozen(call(`call_${round}`)), frozen(result(`call_${round}`, `${round}:00`)));
        if (round === 30) history[4] = frozen({ role: 'assistant', content: 'replaced far back' });
        const messages = round === 45 ? history.slice(0, -3) : history;
        const body = sent(messages, cache, options);
        expect(body).toEqual(fresh(messages, options));
      }
      history.push(frozen({ role: 'user', content: 'one more' }));
      const { value: body, reads } = readsOf(() => sent(history, cache, options));
      expect(body).toEqual(fresh(history, options));
      // Only the new message is read, unless call ids are shortened (they depend on every message).
      if (options === MISTRAL) expect(reads).toBeGreaterThan(100);
      else expect(reads).toBeLessThan(10);
    }
  });

  it('does not take a head mapped with notes after tool results for a request without them, nor the other way', () => {
    const cache = new OpenAIWireCache();
    const notes: OpenAIRequestOptions = { ...OPTIONS, assistantAfterToolResults: true };
    const history: ChatMessage[] = [Object.freeze({ role: 'user', content: 'time?' })];
    for (const [i, options] of [notes, OPTIONS, notes, OPTIONS].entries()) {
      history.push(
        Object.freeze({
          role: 'tool',
          toolCallId: `c${i}`,
          name: 'get_time',
          content: `${i}:00`,
          isError: false,
        }),
        Object.freeze({ role: 'user', content: `and now? ${i}` }),
      );
      expect(sent(history, cache, options)).toEqual(fresh(history, options));
    }
  });

  it('reads a message that is not frozen again on every request, and everything after it', () => {
    const cache = new OpenAIWireCache();
    const loose = { role: 'user' as const, content: 'first words' };
    const history: ChatMessage[] = [
      Object.freeze({ role: 'user', content: 'hi' }),
      loose,
      Object.freeze({ role: 'assistant', content: 'noted' }),
    ];
    sent(history, cache);
    loose.content = 'second words';
    history.push(Object.freeze({ role: 'user', content: 'and now?' }));
    const body = sent(history, cache);
    expect(body).toEqual(fresh(history));
    expect(JSON.stringify(body)).toContain('second words');
    // A frozen message whose call is not frozen is read again too.
    const reply = Object.freeze({
      role: 'assistant' as const,
      content: '',
      toolCalls: Object.freeze([{ id: 'call_1', name: 'get_time', arguments: '{"zone":"UTC"}' }]),
    });
    const other: ChatMessage[] = [Object.freeze({ role: 'user', content: 'time?' }), reply];
    sent(other, cache);
    (reply.toolCalls[0] as { arguments: string }).arguments = '{"zone":"CET"}';
    expect(JSON.stringify(sent(other, cache))).toContain('CET');
  });

  it('makes a Mistral call id again when a later message takes the short id it travelled under', () => {
    const cache = new OpenAIWireCache();
    const history: ChatMessage[] = [
      { role: 'user', content: 'time?' },
      call('toolseam-call-1'),
      result('toolseam-call-1', '12:00'),
    ];
    const before = sent(history, cache, MISTRAL) as { messages: { tool_calls?: { id: string }[] }[] };
    // messages[0] is the system message
    const short = before.messages[2]?.tool_calls?.[0]?.id as string;
    expect(short).toBe(shortCallIds(history)('toolseam-call-1'));
    // a native Mistral id equal to that short id now holds it, so the old call travels under another
    const grown: ChatMessage[] = [
      ...history,
      { role: 'user', content: 'again' },
      call(short),
      result(short, '12:05'),
    ];
    const after = sent(grown, cache, MISTRAL) as {
      messages: { tool_calls?: { id: string }[]; tool_call_id?: string }[];
    };
    expect(after).toEqual(fresh(grown, MISTRAL));
    const moved = after.messages[2]?.tool_calls?.[0]?.id;
    expect(moved).not.toBe(short);
    expect(after.messages[3]?.tool_call_id).toBe(moved);
  });
});

const HARNESS: AdapterHarness = {
  label: 'OpenAI-compatible',
  family: 'openai',
  model: 'gpt-test',
  corpusProviders: [],
  stopTable: {},
};

describe('an OpenAI-compatible adapter sending cached messages', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor(HARNESS);
  });
  afterAll(() => standIn.close());

  it('sends each request’s history as the endpoint should read it, an edited message as edited', async () => {
    standIn.reset();
    standIn.push({ text: 'first' }, { text: 'second' });
    const adapter = adapterFor(HARNESS, standIn);
    const history: ChatMessage[] = [
      { role: 'user', content: 'Wie spät ist es in 東京? 🕐' },
      call('call_1'),
      result('call_1', '12:00 — noon'),
    ];
    await collect(adapter.stream({ ...ask(''), messages: history }));
    history[2] = result('call_1', '13:00');
    history.push({ role: 'assistant', content: 'It is one.' }, { role: 'user', content: 'thanks' });
    await collect(adapter.stream({ ...ask(''), messages: history }));
    expect(standIn.requests.map((r) => r.messages)).toEqual([
      [
        history[0],
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'get_time', arguments: '{"zone":"UTC"}' }],
        },
        { role: 'tool', toolCallId: 'call_1', name: 'get_time', content: '12:00 — noon', isError: false },
      ],
      history,
    ]);
  });
});

describe('a tool’s bytes in the list', () => {
  it('are the bytes JSON.stringify writes of its Chat Completions form', () => {
    const cache = new OpenAIWireCache();
    const tools: WireTool[] = [
      TOOL,
      {
        name: 'find "it"',
        description: 'Backslash \\, quote ", tab \t, line\u2028separator, 中文 and 😀.',
        parameters: {
          type: 'object',
          properties: { q: { type: 'string', description: 'é', enum: ['a', '😀'] }, n: { type: 'integer' } },
          required: ['q'],
        },
      },
    ];
    for (const tool of tools) {
      const expected = Buffer.from(`,${JSON.stringify(toOpenAITool(tool))}`);
      expect(cache.listedTool(cache.tool(tool))).toEqual(expected);
      // Kept: asked again, the same bytes.
      expect(cache.listedTool(cache.tool(tool))).toEqual(expected);
    }
  });
});

describe('a request’s tools as one list', () => {
  const other: WireTool = { name: 'get_date', description: 'Today’s date.', parameters: { type: 'object' } };

  it('gives a frozen list sent again the same forms and bytes, those JSON.stringify writes', () => {
    const cache = new OpenAIWireCache();
    const list: readonly WireTool[] = Object.freeze([TOOL, other]);
    const forms = cache.tools(list);
    expect(forms).toEqual(list.map(toOpenAITool));
    expect(cache.tools(list)).toBe(forms);
    const bytes = cache.listedTools(forms);
    expect(bytes).toEqual(list.map((t) => Buffer.from(`,${JSON.stringify(toOpenAITool(t))}`)));
    expect(cache.listedTools(forms)).toBe(bytes);
  });

  it('reads a list it may not keep tool by tool each time: one changed in place is sent as it is now', () => {
    const cache = new OpenAIWireCache();
    const list: WireTool[] = [TOOL, { ...other }];
    const forms = cache.tools(list);
    cache.listedTools(forms);
    list[1] = { ...other, description: 'The date where you are.' };
    const now = cache.tools(list);
    expect(now).not.toBe(forms);
    expect(now).toEqual(list.map(toOpenAITool));
    expect(cache.listedTools(now)).toEqual(
      list.map((t) => Buffer.from(`,${JSON.stringify(toOpenAITool(t))}`)),
    );
    // Forms made elsewhere may change too: their bytes are made each time.
    const own = [toOpenAITool(other)];
    const once = cache.listedTools(own);
    expect(cache.listedTools(own)).not.toBe(once);
    expect(cache.listedTools(own)).toEqual(once);
  });
});
