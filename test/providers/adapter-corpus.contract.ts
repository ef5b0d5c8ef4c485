import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import type { StandIn } from '../../src/testing/index.js';
import {
  CORPUS_CASES,
  corpusAnswer,
  familyOfCorpus,
  loadProviderCorpus,
  toolsFor,
} from '../support/provider-corpus.js';
import { type AdapterHarness, adapterFor, ask, failure } from '../support/provider-harness.js';

/** Every rejection body of the shared corpus for this adapter's family: its error, its tool, one request. */
export function describeCorpus(harness: AdapterHarness, current: () => StandIn): void {
  const corpus = loadProviderCorpus();
  describe('every rejection body of the corpus', () => {
    corpus.forEach((entry, index) => {
      if (
        familyOfCorpus(entry.provider) !== harness.family ||
        !harness.corpusProviders.includes(entry.provider)
      )
        return;
      const expected = CORPUS_CASES[index];
      it(`#${index} ${entry.provider} (${entry.source})`, async () => {
        if (!expected) throw new Error(`no case written for corpus entry ${index}`);
        const standIn = current();
        const answer = corpusAnswer(entry);
        standIn.push({ raw: answer });
        const adapter = adapterFor(harness, standIn, { retry: { maxRetries: 0 } });
        const tools = toolsFor(expected.tools);
        const error = await failure(adapter.stream(ask('go', tools)));
        expect(error).toBeInstanceOf(ProviderError);
        const p = error as ProviderError;
        expect(p.provider).toBe(adapter.provider);
        expect(p.providerCode).toBe(expected.code);
        expect(p.message).not.toContain('(no body)');
        if (entry.status === 200) {
          // an error inside a started stream: no HTTP status, the error event's own payload kept
          expect(p.status).toBeUndefined();
          expect(p.rawBody).toContain('Provider disconnected');
          expect(p.retryable).toBe(true);
        } else {
          expect(p.status).toBe(entry.status);
          expect(p.rawBody).toBe(entry.body);
          expect(p.retryable).toBe(false);
          const headerId = Object.entries(answer.headers ?? {}).find(([k]) =>
            /^(x-request-id|request-id|x-amzn-requestid)$/i.test(k),
          )?.[1];
          expect(p.requestId).toBe(headerId);
        }
        if (entry.sdk_observed) {
          const cause = p.cause as Error;
          expect(cause.constructor.name).toBe(entry.sdk_observed.class);
          expect(cause.message.startsWith(entry.sdk_observed.message_prefix)).toBe(true);
        }
        expect(adapter.toolsNamedInRejection(error, tools)).toEqual(expected.named);
        expect(standIn.requests).toHaveLength(1);
      });
    });
  });
}
