import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import type { StandIn } from '../../src/testing/index.js';
import {
  type AdapterHarness,
  adapterFor,
  ask,
  collect,
  failure,
  standInFor,
  textOf,
} from '../support/provider-harness.js';

const GEMINI: AdapterHarness = {
  label: 'Gemini-compatible',
  family: 'openai',
  mode: 'gemini',
  model: 'gemini-test',
  corpusProviders: [],
  stopTable: {},
};
const OPENAI: AdapterHarness = {
  label: 'OpenAI',
  family: 'openai',
  model: 'gpt-test',
  corpusProviders: [],
  stopTable: {},
};
const ANTHROPIC: AdapterHarness = {
  ...OPENAI,
  label: 'Anthropic',
  family: 'anthropic',
  model: 'claude-test',
};

/** Gemini's 429 as its OpenAI-compatible endpoint sends it: the wait only in the body's RetryInfo, no header. */
function gemini429(retryDelay: string) {
  const error = {
    code: 429,
    message: `You exceeded your current quota, please check your plan and billing details.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 15\nPlease retry in ${retryDelay}.`,
    status: 'RESOURCE_EXHAUSTED',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', quotaValue: '15' }],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
    ],
  };
  return {
    raw: {
      status: 429,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify([{ error }], null, 2),
    },
  };
}

/** OpenAI's 429 with no retry-after: only its rate-limit headers say when a limit resets. */
function openai429(headers: Record<string, string>) {
  const error = {
    message: 'Rate limit reached for gpt-test on tokens per min (TPM): Limit 30000, Used 30000.',
    type: 'tokens',
    param: null,
    code: 'rate_limit_exceeded',
  };
  return {
    raw: {
      status: 429,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ error }, null, 2),
    },
  };
}

/** Anthropic's 429 with no retry-after: only its rate-limit headers say when a limit resets. */
function anthropic429(headers: Record<string, string>) {
  const body = {
    type: 'error',
    error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit.' },
  };
  return {
    raw: {
      status: 429,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    },
  };
}

function describeFamily(harness: AdapterHarness, cases: (current: () => StandIn) => void): void {
  describe(harness.label, () => {
    let standIn: StandIn;
    beforeAll(async () => {
      standIn = await standInFor(harness);
    });
    afterAll(async () => {
      await standIn.close();
    });
    beforeEach(() => standIn.reset());
    cases(() => standIn);
  });
}

describe('rate limits: when to come back, said in the body or the rate-limit headers, and when not to', () => {
  describeFamily(GEMINI, (current) => {
    it("waits as Gemini's RetryInfo asks: a wait past the ceiling is not retried and the error carries it", async () => {
      const standIn = current();
      standIn.push(gemini429('38.922534355s'), { text: 'never reached' });
      const error = await failure(adapterFor(GEMINI, standIn).stream(ask('quota')));
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).status).toBe(429);
      expect((error as ProviderError).retryAfterMs).toBe(38_923);
      expect(standIn.requests).toHaveLength(1);
    });

    it('retries once the short wait RetryInfo asks for has passed', async () => {
      const standIn = current();
      standIn.push(gemini429('0.005s'), { text: 'after the wait' });
      const events = await collect(adapterFor(GEMINI, standIn).stream(ask('quota')));
      expect(textOf(events)).toBe('after the wait');
      expect(standIn.requests).toHaveLength(2);
    });

    it('the stand-in answers a scripted 429 as Gemini does, with the wait in the body', async () => {
      const standIn = current();
      standIn.push({ error: { status: 429, retryAfter: 30 } }, { text: 'never reached' });
      const error = (await failure(adapterFor(GEMINI, standIn).stream(ask('quota')))) as ProviderError;
      expect(error.retryAfterMs).toBe(30_000);
      expect(error.rawBody).toContain('"retryDelay": "30s"');
    });
  });

  describeFamily(OPENAI, (current) => {
    it('waits for the exhausted limit to reset (x-ratelimit-reset-tokens), not for the others', async () => {
      const standIn = current();
      standIn.push(
        openai429({
          'x-ratelimit-remaining-requests': '499',
          'x-ratelimit-reset-requests': '120ms',
          'x-ratelimit-remaining-tokens': '0',
          'x-ratelimit-reset-tokens': '6m0s',
        }),
        { text: 'never reached' },
      );
      const error = (await failure(adapterFor(OPENAI, standIn).stream(ask('tpm')))) as ProviderError;
      expect(error.status).toBe(429);
      expect(error.retryAfterMs).toBe(360_000);
      expect(standIn.requests).toHaveLength(1);
    });

    it('backs off as usual when no limit is spent (the reset times say nothing of this 429)', async () => {
      const standIn = current();
      standIn.push(openai429({ 'x-ratelimit-remaining-tokens': '12', 'x-ratelimit-reset-tokens': '1m30s' }), {
        text: 'second time',
      });
      const events = await collect(adapterFor(OPENAI, standIn).stream(ask('tpm')));
      expect(textOf(events)).toBe('second time');
      expect(standIn.requests).toHaveLength(2);
    });
  });

  describeFamily(OPENAI, (current) => {
    it('does not retry a 429 for a spent quota (insufficient_quota): no wait brings it back', async () => {
      const standIn = current();
      const error = {
        message:
          'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      };
      standIn.push(
        {
          raw: {
            status: 429,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ error }, null, 2),
          },
        },
        { text: 'never reached' },
      );
      const caught = (await failure(adapterFor(OPENAI, standIn).stream(ask('quota')))) as ProviderError;
      expect(caught.status).toBe(429);
      expect(caught.providerCode).toBe('insufficient_quota');
      expect(caught.retryable).toBe(false);
      expect(caught.message).toBe(`${caught.provider} answered HTTP 429: ${error.message}`);
      expect(standIn.requests).toHaveLength(1);
    });
  });

  describeFamily(ANTHROPIC, (current) => {
    it('waits until the exhausted limit resets (anthropic-ratelimit-*-reset, a time of day)', async () => {
      const standIn = current();
      const reset = new Date(Date.now() + 120_000).toISOString();
      standIn.push(
        anthropic429({
          'anthropic-ratelimit-requests-remaining': '0',
          'anthropic-ratelimit-requests-reset': reset,
          'anthropic-ratelimit-tokens-remaining': '16000',
          'anthropic-ratelimit-tokens-reset': new Date(Date.now() + 1_000).toISOString(),
        }),
        { text: 'never reached' },
      );
      const error = (await failure(adapterFor(ANTHROPIC, standIn).stream(ask('rpm')))) as ProviderError;
      expect(error.status).toBe(429);
      expect(error.retryAfterMs).toBeGreaterThan(60_000);
      expect(error.retryAfterMs).toBeLessThanOrEqual(120_000);
      expect(standIn.requests).toHaveLength(1);
    });
  });
});
