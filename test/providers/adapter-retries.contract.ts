import { beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import type { StandIn } from '../../src/testing/index.js';
import {
  type AdapterHarness,
  adapterFor,
  ask,
  CLOCK,
  callsOf,
  collect,
  failure,
  textBeforeFailure,
  textOf,
  WEATHER,
} from '../support/provider-harness.js';

/** A 400 saying `message` in the family's own body shape (`fields` go beside an OpenAI-style message). */
function badRequest(
  family: AdapterHarness['family'],
  message: string,
  headers: Record<string, string> = {},
  fields: Record<string, string> = {},
) {
  const all = { 'content-type': 'application/json', ...headers };
  if (family === 'anthropic') {
    const body = { type: 'error', error: { type: 'invalid_request_error', message } };
    return { status: 400, headers: all, body: JSON.stringify(body) };
  }
  if (family === 'bedrock') {
    const errorType = 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/';
    return {
      status: 400,
      headers: { ...all, 'x-amzn-errortype': errorType },
      body: JSON.stringify({ message }),
    };
  }
  const error = { message, type: 'invalid_request_error', ...fields };
  return { status: 400, headers: all, body: JSON.stringify({ error }, null, 2) };
}

/** A 400 blaming the second tool (`get_time`) in the family's own words, sent with `x-should-retry: true`. */
function toolRejectionAsking(family: AdapterHarness['family']) {
  const asking = { 'x-should-retry': 'true' };
  if (family === 'anthropic')
    return badRequest(family, 'tools.1.custom.input_schema: JSON schema is invalid.', asking);
  if (family === 'bedrock') {
    const message =
      'The value at toolConfig.tools.1.toolSpec.inputSchema.json.type must be one of the following: object.';
    return badRequest(family, message, asking);
  }
  const message = "Invalid schema for function 'get_time': In context=(), object schema missing properties.";
  return badRequest(family, message, asking, {
    param: 'tools[1].function.parameters',
    code: 'invalid_function_parameters',
  });
}

/** What nginx answers when the server behind it is down. */
const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';
/** Retries, error answers and stops: the same cases for every adapter, on its real SDK against its stand-in. */
export function describeRetries(harness: AdapterHarness, current: () => StandIn): void {
  describe('retries', () => {
    let standIn: StandIn;
    beforeEach(() => {
      standIn = current();
    });

    it('retries a 429, then succeeds', async () => {
      standIn.push({ error: { status: 429, retryAfter: 0 } }, { text: 'second time lucky' });
      const events = await collect(adapterFor(harness, standIn).stream(ask('rate')));
      expect(textOf(events)).toBe('second time lucky');
      expect(standIn.requests).toHaveLength(2);
    });

    it('does not retry sooner than a rate limit asks: the error carries the wait', async () => {
      standIn.push({ error: { status: 429, retryAfter: 30 } }, { text: 'never reached' });
      const error = await failure(adapterFor(harness, standIn).stream(ask('rate')));
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).status).toBe(429);
      expect((error as ProviderError).retryAfterMs).toBe(30_000);
      expect(standIn.requests).toHaveLength(1);
    });

    it('says before each wait what failed, which attempt comes next and how long it waits', async () => {
      standIn.push({ error: { status: 429, retryAfter: 0 } }, { drop: true }, { text: 'at last' });
      const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 2, baseDelayMs: 1 } });
      const events = await collect(adapter.stream(ask('rate')));
      expect(events.map((e) => e.type)).toEqual(['retry', 'retry', 'text-delta', 'finish']);
      const [limited, dropped] = events;
      expect(limited).toEqual({
        type: 'retry',
        provider: adapter.provider,
        status: 429,
        reason: 'rate limited',
        attempt: 2,
        maxAttempts: 3,
        waitMs: 0,
      });
      expect(dropped).toMatchObject({
        type: 'retry',
        provider: adapter.provider,
        reason: 'the connection was lost',
        attempt: 3,
        maxAttempts: 3,
      });
      expect(dropped).not.toHaveProperty('status');
      expect(textOf(events)).toBe('at last');
    });

    it('retries a 5xx and a dropped connection', async () => {
      standIn.push({ error: { status: 500 } }, { drop: true }, { text: 'third time' });
      const events = await collect(adapterFor(harness, standIn).stream(ask('flaky')));
      expect(textOf(events)).toBe('third time');
      expect(standIn.requests).toHaveLength(3);
    });

    it('never retries a 400', async () => {
      standIn.push(
        { error: { status: 400, message: 'bad request, as scripted' } },
        { text: 'never reached' },
      );
      const error = await failure(adapterFor(harness, standIn).stream(ask('bad')));
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).status).toBe(400);
      expect((error as ProviderError).retryable).toBe(false);
      expect((error as ProviderError).message).toContain('bad request, as scripted');
      expect(standIn.requests).toHaveLength(1);
      expect(standIn.pending).toBe(1);
    });

    it('retries a request timeout (408) and a conflict (409), as the SDKs do', async () => {
      standIn.push({ error: { status: 408 } }, { error: { status: 409 } }, { text: 'after two' });
      const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 2, baseDelayMs: 1 } });
      const events = await collect(adapter.stream(ask('again')));
      expect(textOf(events)).toBe('after two');
      expect(standIn.requests).toHaveLength(3);
    });

    it("follows the server's x-should-retry header over the status", async () => {
      const raw = (status: number, shouldRetry: string) => ({
        raw: {
          status,
          headers: { 'content-type': 'application/json', 'x-should-retry': shouldRetry },
          body: JSON.stringify({ error: { message: `scripted ${status}`, type: 'scripted' } }),
        },
      });
      standIn.push(raw(400, 'true'), { text: 'asked to retry' });
      const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 2, baseDelayMs: 1 } });
      expect(textOf(await collect(adapter.stream(ask('retry me'))))).toBe('asked to retry');
      expect(standIn.requests).toHaveLength(2);
      standIn.reset();
      standIn.push(raw(503, 'false'), { text: 'never reached' });
      const error = await failure(adapter.stream(ask('do not')));
      expect((error as ProviderError).status).toBe(503);
      expect((error as ProviderError).retryable).toBe(false);
      expect(standIn.requests).toHaveLength(1);
    });

    it('never retries a rejected tool definition, even when the server says x-should-retry: true', async () => {
      standIn.push({ raw: toolRejectionAsking(harness.family) }, { text: 'never reached' });
      const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 2, baseDelayMs: 1 } });
      const error = await failure(adapter.stream(ask('bad tool')));
      expect((error as ProviderError).status).toBe(400);
      expect((error as ProviderError).retryable).toBe(false);
      expect(adapter.toolsNamedInRejection(error, [WEATHER, CLOCK])).toEqual(['get_time']);
      expect(standIn.requests).toHaveLength(1);
    });

    it('tells an error whose message runs over several lines in one line', async () => {
      const message = '* contents: contents is not specified\n* model: unexpected model name format\n';
      standIn.push({ raw: badRequest(harness.family, message) });
      const error = (await failure(adapterFor(harness, standIn).stream(ask('lines')))) as ProviderError;
      expect(error.message).toBe(
        `${error.provider} answered HTTP 400: contents: contents is not specified; model: unexpected model name format`,
      );
      expect(error.rawBody).toContain(JSON.stringify(message).slice(1, -1));
    });

    it('an HTML page instead of an API answer says so in one line, naming its title', async () => {
      standIn.push({ raw: { status: 502, headers: { 'content-type': 'text/html' }, body: NGINX_502 } });
      const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 0 } });
      const error = (await failure(adapter.stream(ask('proxy down')))) as ProviderError;
      expect(error.status).toBe(502);
      expect(error.retryable).toBe(true);
      expect(error.rawBody).toBe(NGINX_502);
      expect(error.message).toBe(
        `${adapter.provider} answered HTTP 502 with a web page ("502 Bad Gateway") instead of an API answer; check the base URL, or the proxy in between.`,
      );
    });

    it('an error answer with an empty body says so', async () => {
      standIn.push({ raw: { status: 503, body: '' } });
      const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 0 } });
      const error = (await failure(adapter.stream(ask('empty')))) as ProviderError;
      expect(error.message).toBe(`${adapter.provider} answered HTTP 503 with an empty body.`);
    });

    it('stops after the retry bound', async () => {
      standIn.push(...Array.from({ length: 4 }, () => ({ error: { status: 503 } })));
      const error = await failure(
        adapterFor(harness, standIn, { retry: { maxRetries: 2, baseDelayMs: 1 } }).stream(ask('down')),
      );
      expect((error as ProviderError).status).toBe(503);
      expect((error as ProviderError).retryable).toBe(true);
      expect(standIn.requests).toHaveLength(3);
    });

    it('once the retries are spent, says how often it tried and what to do now', async () => {
      const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 2, baseDelayMs: 1 } });
      standIn.push(...Array.from({ length: 3 }, () => ({ error: { status: 503, message: 'Busy.' } })));
      const busy = (await failure(adapter.stream(ask('down')))) as ProviderError;
      expect(busy.message).toBe(
        `${adapter.provider} answered HTTP 503: Busy. Tried 3 times; this is trouble on ${adapter.provider}'s side that usually passes: send the message again in a minute or two.`,
      );
      expect(busy.status).toBe(503);
      expect(busy.retryable).toBe(true);
      standIn.reset();
      standIn.push(...Array.from({ length: 3 }, () => ({ error: { status: 429, message: 'Too many.' } })));
      const limited = (await failure(adapter.stream(ask('rate')))) as ProviderError;
      expect(limited.message).toBe(
        `${adapter.provider} answered HTTP 429: Too many. Tried 3 times; the rate limit had not lifted: wait a minute, then send the message again (if it keeps happening, check the account's limits).`,
      );
      expect(limited.status).toBe(429);
    });

    it('does not retry a stream that failed after it had started answering', async () => {
      standIn.push({ text: 'partial answer', streamError: { message: 'lost the model' } }, { text: 'never' });
      const { text, error: caught } = await textBeforeFailure(
        adapterFor(harness, standIn).stream(ask('midway')),
      );
      expect(text).toBe('partial answer');
      expect(caught).toBeInstanceOf(ProviderError);
      expect((caught as ProviderError).status).toBeUndefined();
      expect((caught as ProviderError).message).toContain('lost the model');
      expect((caught as ProviderError).message).toContain(
        'Part of the answer had already arrived, so it was not asked for again (it would have started over); what arrived is incomplete. Send the message again for a whole answer.',
      );
      expect(standIn.requests).toHaveLength(1);
    });

    const cuts = [
      ['end', 'a stream cut before its closing event'],
      ['reset', 'a connection dropped mid-stream'],
    ] as const;
    for (const [cutOff, what] of cuts) {
      it(`retries ${what} when nothing had been passed on`, async () => {
        standIn.push(
          { toolCalls: [{ name: 'delete_file', arguments: '{"path":"/tmp/a' }], cutOff },
          { text: 'the whole answer' },
        );
        const events = await collect(adapterFor(harness, standIn).stream(ask('cut')));
        expect(callsOf(events)).toEqual([]);
        expect(textOf(events)).toBe('the whole answer');
        expect(standIn.requests).toHaveLength(2);
      });
    }

    it('fails a stream cut before its closing event after text was passed on, without retrying', async () => {
      standIn.push({ text: 'The answer is', cutOff: 'end' }, { text: 'never' });
      const seen: string[] = [];
      let caught: unknown;
      try {
        for await (const event of adapterFor(harness, standIn).stream(ask('cut')))
          if (event.type === 'text-delta') seen.push(event.text);
          else seen.push(`<${event.type}>`);
      } catch (error) {
        caught = error;
      }
      expect(seen.join('')).toBe('The answer is');
      expect(caught).toBeInstanceOf(ProviderError);
      expect((caught as ProviderError).providerCode).toBe('connection');
      expect((caught as ProviderError).retryable).toBe(true);
      expect((caught as ProviderError).message).toContain('stopped before it was complete');
      expect((caught as ProviderError).message).toContain('Send the message again for a whole answer.');
      expect(standIn.requests).toHaveLength(1);
    });

    it('does not send a call whose signal was aborted before it started', async () => {
      standIn.push({ text: 'not asked' });
      const controller = new AbortController();
      controller.abort();
      const error = await failure(
        adapterFor(harness, standIn, { stream: false }).stream({
          ...ask('never'),
          signal: controller.signal,
        }),
      );
      expect((error as ProviderError).providerCode).toBe('aborted');
      expect(standIn.requests).toHaveLength(0);
    });

    it('a call stopped while it waits to retry reads as cancelled, and is not sent again', async () => {
      standIn.push({ error: { status: 429, retryAfter: 1 } }, { text: 'not asked' });
      const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 2, maxDelayMs: 5_000 } });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const error = await failure(adapter.stream({ ...ask('wait'), signal: controller.signal }));
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).provider).toBe(adapter.provider);
      expect((error as ProviderError).providerCode).toBe('aborted');
      expect((error as ProviderError).retryable).toBe(false);
      expect(standIn.requests).toHaveLength(1);
    });

    it('times out a silent provider, and a cancelled call is not retried', async () => {
      standIn.push({ text: 'too late', delayMs: 2_000 });
      const timedOut = await failure(
        adapterFor(harness, standIn, { timeoutMs: 150, retry: { maxRetries: 0 } }).stream(ask('slow')),
      );
      expect((timedOut as ProviderError).providerCode).toBe('timeout');
      expect((timedOut as ProviderError).retryable).toBe(true);
      standIn.reset();
      standIn.push({ text: 'too late', delayMs: 2_000 }, { text: 'not asked' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const cancelled = await failure(
        adapterFor(harness, standIn).stream({ ...ask('cancel'), signal: controller.signal }),
      );
      expect((cancelled as ProviderError).providerCode).toBe('aborted');
      expect(standIn.requests).toHaveLength(1);
    });
  });
}
