import { describe, expect, it } from 'vitest';
import { InputError, ProviderError } from '../../src/core/errors.js';
import type { ModelEvent, ModelRequest, WireTool } from '../../src/core/model.js';
import { ScriptedModel } from '../../src/testing/index.js';

const weather: WireTool = {
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const mail: WireTool = { name: 'send_mail', description: 'Send a mail.', parameters: { type: 'object' } };

function request(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'Be brief.',
    messages: [{ role: 'user', content: text }],
    tools: [weather, mail],
    ...extra,
  };
}

/** Every event of one call, and what it threw (if it did). */
async function run(model: ScriptedModel, req: ModelRequest) {
  const events: ModelEvent[] = [];
  try {
    for await (const event of model.stream(req)) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

const textOf = (events: readonly ModelEvent[]) =>
  events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');

describe('ScriptedModel as a ModelAdapter (in-process)', () => {
  it('answers with text in pieces, then the tool calls and the finish, and keeps each request it was given', async () => {
    const model = new ScriptedModel([
      {
        text: 'Looking it up.',
        chunkSize: 5,
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
      },
    ]);
    const { events, error } = await run(model, request('weather in Oslo?'));
    expect(error).toBeUndefined();
    expect(
      events.filter((e) => e.type === 'text-delta').map((e) => e.type === 'text-delta' && e.text),
    ).toEqual(['Looki', 'ng it', ' up.']);
    expect(events.slice(-2)).toMatchObject([
      { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'finish', stopReason: 'tool_use', rawStopReason: 'tool_use' },
    ]);
    const finish = events.at(-1);
    if (finish?.type === 'finish') expect(finish.usage?.inputTokens).toBeGreaterThan(0);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]).toMatchObject({ system: 'Be brief.', lastUserMessage: 'weather in Oslo?' });
    expect(model.pending).toBe(0);
  });

  it('matches turns against the request it is given, and echoes the last tool result', async () => {
    const model = new ScriptedModel([
      { match: { lastUserIncludes: 'second' }, text: 'second answer' },
      { when: (r) => r.tools.some((t) => t.name === 'send_mail'), echo: 'lastToolResult' },
    ]);
    const withResult = request('first', {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'get_weather', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'a', name: 'get_weather', content: 'Sunny.', isError: false },
      ],
    });
    expect(textOf((await run(model, withResult)).events)).toBe('Sunny.');
    expect(textOf((await run(model, request('the second one'))).events)).toBe('second answer');
  });

  it('throws a scripted error as the ProviderError an adapter would, with its wait', async () => {
    const model = new ScriptedModel([
      { error: { status: 429, message: 'slow down', retryAfter: 2 } },
      { error: { status: 400 } },
    ]);
    const limited = (await run(model, request('hi'))).error;
    expect(limited).toBeInstanceOf(ProviderError);
    expect(limited).toMatchObject({ provider: 'scripted', status: 429, retryable: true, retryAfterMs: 2000 });
    expect((limited as ProviderError).message).toBe('scripted answered HTTP 429: slow down');
    expect((await run(model, request('hi'))).error).toMatchObject({ status: 400, retryable: false });
  });

  it('fails mid-answer after the text it sent, and a dropped or cut answer is a lost connection', async () => {
    const model = new ScriptedModel([
      { streamError: { code: 'overloaded_error', message: 'busy' }, text: 'Half' },
      { drop: true },
      { text: 'cut here', cutOff: 'end' },
    ]);
    const mid = await run(model, request('hi'));
    expect(textOf(mid.events)).toBe('Half');
    expect(mid.error).toMatchObject({ status: undefined, providerCode: 'overloaded_error' });
    expect((await run(model, request('hi'))).error).toMatchObject({
      providerCode: 'connection',
      retryable: true,
    });
    const cut = await run(model, request('hi'));
    expect(textOf(cut.events)).toBe('cut here');
    expect(cut.events.some((e) => e.type === 'finish')).toBe(false);
    expect(cut.error).toMatchObject({ providerCode: 'connection', retryable: true });
  });

  it('a stalled or slow answer ends when the caller stops it', async () => {
    const model = new ScriptedModel([
      { text: 'wait', cutOff: 'hold' },
      { text: 'late', delayMs: 600_000 },
    ]);
    for (const expected of ['wait', '']) {
      const stop = new AbortController();
      const call = run(model, request('hi', { signal: stop.signal }));
      setTimeout(() => stop.abort(), 10);
      const { events, error } = await call;
      expect(textOf(events)).toBe(expected);
      expect(error).toMatchObject({ providerCode: 'aborted', retryable: false });
    }
  });

  it('refuses a request offering a rejected tool, and names that tool (and only for its own errors)', async () => {
    const model = new ScriptedModel([{ text: 'fine' }]).rejectTool('send_mail');
    const { error } = await run(model, request('hi'));
    expect(error).toMatchObject({ status: 400 });
    expect((error as ProviderError).message).toContain('tools[1] (send_mail)');
    expect(model.toolsNamedInRejection(error, [weather, mail])).toEqual(['send_mail']);
    expect(model.toolsAttributedInRejection(error, [weather, mail])).toEqual(['send_mail']);
    expect(model.toolsNamedInRejection(error, [weather])).toEqual([]);
    const other = new ProviderError({
      provider: 'scripted',
      status: 400,
      message: 'send_mail',
      retryable: false,
    });
    expect(model.toolsNamedInRejection(other, [weather, mail])).toEqual([]);
    // the turn is still there for the request without that tool
    expect(textOf((await run(model, request('hi', { tools: [weather] }))).events)).toBe('fine');
  });

  it('says when the script is spent, or echoes when asked to', async () => {
    const spent = (await run(new ScriptedModel(), request('hi'))).error;
    expect(spent).toMatchObject({ status: 400 });
    expect((spent as Error).message).toMatch(
      /no turn left for this request \(1 requests so far\); push more turns/,
    );
    const echo = new ScriptedModel([], {
      whenScriptEmpty: 'echo',
      provider: 'demo',
      model: 'm1',
      maxTools: 8,
    });
    expect(textOf((await run(echo, request('say this'))).events)).toBe('say this');
    expect(echo).toMatchObject({ provider: 'demo', model: 'm1', maxTools: 8 });
  });

  it('keeps an error answer given byte for byte, and refuses a successful one, which only HTTP can carry', async () => {
    const model = new ScriptedModel([
      { raw: { status: 503, body: '<html>down</html>' } },
      { raw: { status: 200, body: '{}' } },
    ]);
    expect((await run(model, request('hi'))).error).toMatchObject({
      status: 503,
      rawBody: '<html>down</html>',
    });
    const refused = (await run(model, request('hi'))).error;
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as Error).message).toMatch(/only a stand-in can send/);
  });
});
