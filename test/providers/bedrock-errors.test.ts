import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import type { StandIn } from '../../src/testing/index.js';
import {
  type AdapterHarness,
  adapterFor,
  ask,
  collect,
  standInFor,
  textBeforeFailure,
  textOf,
  WEATHER,
} from '../support/provider-harness.js';

const HARNESS: AdapterHarness = {
  label: 'Bedrock',
  family: 'bedrock',
  model: 'anthropic.claude-test-v1:0',
  corpusProviders: [],
  stopTable: {},
};

/**
 * ConverseStream failures the client has no class for: an error frame (`:message-type` error, with
 * `:error-code` / `:error-message`) and an exception frame of a type outside the client's model. The SDK
 * throws a plain Error named after the code for both.
 */
describe('Bedrock: a failure frame the client has no class for, inside the stream', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor(HARNESS);
  });
  beforeEach(() => standIn.reset());
  afterAll(() => standIn.close());

  it('an error frame is a mid-answer failure judged by its code, its message kept', async () => {
    standIn.push({ streamError: { frame: 'error', code: 'ThrottlingException', message: 'Slow down.' } });
    standIn.push({ text: 'Fine now.' });
    const events = await collect(adapterFor(HARNESS, standIn).stream(ask('hi')));
    expect(standIn.requests).toHaveLength(2);
    expect(textOf(events)).toBe('Fine now.');
  });

  it('an error frame after text fails with its code and message, not as a failure inside toolseam', async () => {
    standIn.push({
      text: 'Partly',
      streamError: { frame: 'error', code: 'InternalFailure', message: 'The service failed.' },
    });
    const { text, error } = await textBeforeFailure(adapterFor(HARNESS, standIn).stream(ask('hi')));
    expect(text).toBe('Partly');
    expect(error).toBeInstanceOf(ProviderError);
    const p = error as ProviderError;
    expect(p.providerCode).toBe('InternalFailure');
    expect(p.retryable).toBe(true);
    expect(p.status).toBeUndefined();
    expect(p.message).toMatch(
      /^bedrock failed mid-answer: The service failed\. Part of the answer had already arrived/,
    );
    expect(JSON.parse(p.rawBody)).toEqual({ message: 'The service failed.' });
    expect(p.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an exception of a type the client does not model reads its payload message', async () => {
    standIn.push({ streamError: { code: 'modelTimeoutException', message: 'The model took too long.' } });
    const adapter = adapterFor(HARNESS, standIn, { retry: { maxRetries: 0 } });
    const error = (await textBeforeFailure(adapter.stream(ask('hi')))).error as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('ModelTimeoutException');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('bedrock failed mid-answer: The model took too long.');
    expect(error.rawBody).toBe('{"message":"The model took too long."}');
  });

  it('a validation error frame that blames a tool is mapped to it and not retried', async () => {
    const message =
      'The value at toolConfig.tools.0.toolSpec.inputSchema.json.type must be one of the following: object.';
    standIn.push({ streamError: { frame: 'error', code: 'ValidationException', message } });
    const adapter = adapterFor(HARNESS, standIn);
    const error = (await textBeforeFailure(adapter.stream(ask('hi', [WEATHER])))).error as ProviderError;
    expect(error.providerCode).toBe('ValidationException');
    expect(error.retryable).toBe(false);
    expect(standIn.requests).toHaveLength(1);
    expect(adapter.toolsNamedInRejection(error, [WEATHER])).toEqual([WEATHER.name]);
  });
});

describe('Bedrock: a connection the server closed', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await standInFor(HARNESS);
  });
  afterAll(() => standIn.close());

  it('is a lost connection, not a timeout (the AWS SDK names a reset socket TimeoutError)', async () => {
    standIn.push({ drop: true });
    const adapter = adapterFor(HARNESS, standIn, { retry: { maxRetries: 0 } });
    const error = (await textBeforeFailure(adapter.stream(ask('hi')))).error as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('connection');
    expect(error.retryable).toBe(true);
    expect(error.message).not.toMatch(/timeoutMs|timed out/);
  });
});
