import { describe, expect, it } from 'vitest';
import { ContextOverflowError, isContextOverflow } from '../../../src/core/context-overflow.js';
import { httpProviderError, streamProviderError } from '../../../src/providers/shared/provider-errors.js';
import { loadProviderCorpus } from '../../support/provider-corpus.js';

/** Each family's refusal of a request too long for the window, in the shape its service sends it. */
const OVERFLOWS = [
  {
    family: 'openai',
    body: '{"error":{"message":"This model\'s maximum context length is 128000 tokens. However, your messages resulted in 130012 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
    counts: { promptTokens: 130012, limitTokens: 128000 },
  },
  {
    family: 'anthropic',
    body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}',
    counts: { promptTokens: 208310, limitTokens: 200000 },
  },
  {
    family: 'openai',
    body: '{"object":"error","message":"This model\'s maximum context length is 131072 tokens. However, you requested 128000 output tokens and your prompt contains at least 3073 input tokens, for a total of at least 131073 tokens. Please reduce the length of the input prompt or the number of requested output tokens.","type":"BadRequestError","param":null,"code":400}',
    counts: { promptTokens: 3073, limitTokens: 131072 },
  },
  { family: 'bedrock', body: '{"message":"Input is too long for requested model."}', counts: {} },
  {
    family: 'bedrock',
    body: '{"message":"The model returned the following errors: prompt is too long: 200049 tokens > 200000 maximum"}',
    counts: { promptTokens: 200049, limitTokens: 200000 },
  },
  {
    family: 'gemini',
    body: '[{"error":{"code":400,"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","errors":[{"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT"}}]',
    counts: { promptTokens: 1200293, limitTokens: 1048576 },
  },
] as const;

const noHeaders = () => undefined;

describe('a provider refusing a request as too long for the context window', () => {
  for (const o of OVERFLOWS) {
    it(`${o.family}: is read as a ContextOverflowError with the counts it gave`, () => {
      const error = httpProviderError({
        provider: o.family,
        status: 400,
        rawBody: o.body,
        header: noHeaders,
        fallbackMessage: '400 status code',
        cause: undefined,
      });
      expect(error).toBeInstanceOf(ContextOverflowError);
      expect(error.code).toBe('context_overflow');
      expect(error.retryable).toBe(false);
      expect(error.rawBody).toBe(o.body);
      expect({ ...(error as ContextOverflowError) }).toMatchObject(o.counts);
    });
  }

  it('bedrock mid-stream: a validationException frame saying too many input tokens is one too', () => {
    const error = streamProviderError({
      provider: 'bedrock',
      code: 'ValidationException',
      message: 'Input is too long for requested model.',
      rawBody: '{"message":"Input is too long for requested model."}',
      cause: undefined,
    });
    expect(isContextOverflow(error)).toBe(true);
  });

  it('no other provider error of the corpus (tool-schema rejections among them) is taken for one', () => {
    const entries = loadProviderCorpus();
    expect(entries.length).toBeGreaterThan(20);
    for (const entry of entries) {
      const error = httpProviderError({
        provider: entry.provider,
        status: entry.status,
        rawBody: entry.body,
        header: (name) => entry.headers?.[name],
        fallbackMessage: `${entry.status} status code`,
        cause: undefined,
      });
      expect(isContextOverflow(error), entry.body.slice(0, 120)).toBe(false);
    }
  });

  it("bedrock's throttling (too many tokens a minute or a day, mid-stream or as a 429) and its output-limit refusal are not one", () => {
    for (const message of [
      'Too many tokens, please wait before trying again.',
      'Too many tokens per day, please wait before trying again.',
    ]) {
      const midStream = streamProviderError({
        provider: 'bedrock',
        code: 'ThrottlingException',
        message,
        rawBody: JSON.stringify({ message }),
        cause: undefined,
      });
      expect(isContextOverflow(midStream), message).toBe(false);
      const answered = httpProviderError({
        provider: 'bedrock',
        status: 429,
        rawBody: JSON.stringify({ message }),
        header: noHeaders,
        fallbackMessage: '',
        cause: undefined,
      });
      expect(isContextOverflow(answered), message).toBe(false);
    }
    const outputLimit = httpProviderError({
      provider: 'bedrock',
      status: 400,
      rawBody:
        '{"message":"The maximum tokens you requested exceeds the model limit of 4096. Try again with a maximum tokens value that is lower than 4096."}',
      header: noHeaders,
      fallbackMessage: '',
      cause: undefined,
    });
    expect(isContextOverflow(outputLimit)).toBe(false);
  });

  it('a 429 or 500 that mentions tokens is not one', () => {
    for (const status of [429, 500]) {
      const error = httpProviderError({
        provider: 'openai',
        status,
        rawBody: '{"error":{"message":"This model\'s maximum context length is 8 tokens."}}',
        header: noHeaders,
        fallbackMessage: '',
        cause: undefined,
      });
      expect(isContextOverflow(error)).toBe(false);
    }
  });
});
