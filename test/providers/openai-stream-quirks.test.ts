import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import type { StandIn } from '../../src/testing/index.js';
import {
  type AdapterHarness,
  adapterFor,
  ask,
  callsOf,
  collect,
  failure,
  finishOf,
  standInFor,
  textOf,
} from '../support/provider-harness.js';

const HARNESS: AdapterHarness = {
  label: 'OpenAI-compatible',
  family: 'openai',
  model: 'local-test',
  corpusProviders: [],
  stopTable: {},
};

/** A streamed answer written chunk by chunk, as a server sends it. */
function sse(
  deltas: readonly unknown[],
  finish: string | null,
  done = true,
): { raw: { status: number; headers: Record<string, string>; body: string } } {
  const base = { id: 'chatcmpl-q', object: 'chat.completion.chunk', created: 0, model: 'local-test' };
  const chunks = [
    ...deltas.map((delta) => ({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] },
  ];
  const body = `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}${done ? 'data: [DONE]\n\n' : ''}`;
  return { raw: { status: 200, headers: { 'content-type': 'text/event-stream' }, body } };
}

/** OpenRouter's error inside a 200 stream, whose `code` is a number standing for an HTTP status. */
function openRouterStreamError(code: number): {
  raw: { status: number; headers: Record<string, string>; body: string };
} {
  const chunk = {
    id: 'gen-q',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'local-test',
    error: { code, message: 'Provider returned error', metadata: { provider_name: 'Together' } },
    choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
  };
  const body = `: OPENROUTER PROCESSING\n\ndata: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
  return { raw: { status: 200, headers: { 'content-type': 'text/event-stream' }, body } };
}

/**
 * OpenRouter's whole (non-streamed) answer when the model failed after the request was accepted: HTTP
 * 200 with the error in the body and no choices, the code standing for an HTTP status.
 */
function errorIn200(code: number, message: string) {
  const body = JSON.stringify({
    error: { code, message, metadata: { provider_name: 'Together' } },
    user_id: 'user_q',
  });
  return { raw: { status: 200, headers: { 'content-type': 'application/json' }, body } };
}

describe('OpenAI-compatible stream quirks, through the openai SDK', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor(HARNESS);
  });
  afterAll(() => standIn.close());
  beforeEach(() => standIn.reset());

  it('keeps parallel calls apart when every one comes at index 0 under its own id (Ollama)', async () => {
    standIn.push(
      sse(
        [
          { role: 'assistant', content: '' },
          {
            tool_calls: [
              {
                index: 0,
                id: 'call_a',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":' },
              },
            ],
          },
          { tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] },
          {
            tool_calls: [
              {
                index: 0,
                id: 'call_b',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Lima"}' },
              },
            ],
          },
        ],
        'tool_calls',
      ),
    );
    const calls = callsOf(await collect(adapterFor(HARNESS, standIn).stream(ask('two cities'))));
    expect(calls.map((c) => [c.id, c.name, JSON.parse(c.arguments)])).toEqual([
      ['call_a', 'get_weather', { city: 'Oslo' }],
      ['call_b', 'get_weather', { city: 'Lima' }],
    ]);
  });

  it('reads one call whose id arrives after its first chunk, or repeats in every chunk, as one call', async () => {
    standIn.push(
      sse(
        [
          { tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } }] },
          { tool_calls: [{ index: 0, id: 'call_late', function: { arguments: '{"city":' } }] },
          { tool_calls: [{ index: 0, id: 'call_late', function: { arguments: '"Rome"}' } }] },
        ],
        'tool_calls',
      ),
    );
    const calls = callsOf(await collect(adapterFor(HARNESS, standIn).stream(ask('one city'))));
    expect(calls.map((c) => [c.id, c.name, JSON.parse(c.arguments)])).toEqual([
      ['call_late', 'get_weather', { city: 'Rome' }],
    ]);
  });

  it('retries an in-stream error whose numeric code is a transient HTTP status (OpenRouter)', async () => {
    standIn.push(openRouterStreamError(502), openRouterStreamError(429), { text: 'third time' });
    const events = await collect(adapterFor(HARNESS, standIn).stream(ask('flaky upstream')));
    expect(textOf(events)).toBe('third time');
    expect(standIn.requests).toHaveLength(3);
  });

  it('does not retry an in-stream error whose numeric code is a client error', async () => {
    standIn.push(openRouterStreamError(400), { text: 'never' });
    const error = await failure(adapterFor(HARNESS, standIn).stream(ask('bad')));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).providerCode).toBe('400');
    expect((error as ProviderError).retryable).toBe(false);
    expect(standIn.requests).toHaveLength(1);
  });

  // Some compatible servers never fill in finish_reason; their [DONE] still closes a whole answer
  it('reads a stream closed by [DONE] without any finish_reason as a whole answer, not a cut one', async () => {
    standIn.push(sse([{ role: 'assistant', content: '' }, { content: 'All ' }, { content: 'there.' }], null));
    const events = await collect(adapterFor(HARNESS, standIn).stream(ask('no reason given')));
    expect(textOf(events)).toBe('All there.');
    expect(finishOf(events)).toMatchObject({ stopReason: 'end_turn', rawStopReason: '' });
    expect(standIn.requests).toHaveLength(1);
  });

  it('runs the tool calls of a stream closed by [DONE] without any finish_reason', async () => {
    const call = {
      index: 0,
      id: 'call_d',
      type: 'function',
      function: { name: 'get_time', arguments: '{}' },
    };
    standIn.push(sse([{ tool_calls: [call] }], null), { text: 'a second answer, never wanted' });
    const events = await collect(adapterFor(HARNESS, standIn).stream(ask('what time')));
    expect(callsOf(events).map((c) => [c.id, c.name])).toEqual([['call_d', 'get_time']]);
    expect(finishOf(events).stopReason).toBe('tool_use');
    expect(standIn.requests).toHaveLength(1);
  });

  it('still fails a stream that ends with neither a finish_reason nor [DONE] once text was passed on', async () => {
    standIn.push(sse([{ content: 'Half an' }], null, false), { text: 'never' });
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const event of adapterFor(HARNESS, standIn).stream(ask('cut')))
        if (event.type === 'text-delta') seen.push(event.text);
    } catch (error) {
      caught = error;
    }
    expect(seen.join('')).toBe('Half an');
    expect((caught as ProviderError).providerCode).toBe('connection');
    expect(standIn.requests).toHaveLength(1);
  });

  it('reads an error inside a 200 whole answer (OpenRouter) as a failure, not an empty answer, and a transient one is retried', async () => {
    standIn.push(errorIn200(502, 'Upstream went away'), { text: 'second time' });
    const events = await collect(adapterFor(HARNESS, standIn, { stream: false }).stream(ask('hi')));
    expect(textOf(events)).toBe('second time');
    expect(standIn.requests).toHaveLength(2);
  });

  it('keeps the code, message and body of an error inside a 200 whole answer; a client error is not retried', async () => {
    standIn.push(errorIn200(400, 'The upstream refused the request'), { text: 'never' });
    const error = await failure(adapterFor(HARNESS, standIn, { stream: false }).stream(ask('hi')));
    expect(error).toBeInstanceOf(ProviderError);
    const p = error as ProviderError;
    expect(p.status).toBeUndefined();
    expect(p.providerCode).toBe('400');
    expect(p.retryable).toBe(false);
    expect(p.message).toContain('The upstream refused the request');
    expect(p.rawBody).toContain('Together');
    expect(standIn.requests).toHaveLength(1);
  });

  it("shows a refusal the model streamed instead of content, as the model's answer", async () => {
    standIn.push(
      sse(
        [{ role: 'assistant', refusal: '' }, { refusal: "I can't help " }, { refusal: 'with that.' }],
        'stop',
      ),
    );
    const events = await collect(adapterFor(HARNESS, standIn).stream(ask('something refused')));
    expect(textOf(events)).toBe("I can't help with that.");
    expect(finishOf(events)).toMatchObject({ stopReason: 'end_turn' });
  });

  it('shows the refusal of a whole (non-streamed) answer', async () => {
    const body = JSON.stringify({
      id: 'chatcmpl-r',
      object: 'chat.completion',
      created: 0,
      model: 'local-test',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, refusal: 'I cannot do that.' },
          finish_reason: 'stop',
        },
      ],
    });
    standIn.push({ raw: { status: 200, headers: { 'content-type': 'application/json' }, body } });
    const adapter = adapterFor(HARNESS, standIn, { stream: false });
    expect(textOf(await collect(adapter.stream(ask('something refused'))))).toBe('I cannot do that.');
  });
});
