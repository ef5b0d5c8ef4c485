import { ProviderError } from '../../core/errors.js';
import type { ModelEvent } from '../../core/model.js';
import type { RetrySettings } from './provider-config.js';
import { transportProviderError } from './provider-errors.js';
import { givenUpError } from './retry-advice.js';
import { retryNotice } from './retry-notice.js';
import { retryDelay } from './retry-policy.js';

/** Waits `ms`; false when `signal` stopped the wait (or had already fired). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve(true);
    }
    function aborted() {
      clearTimeout(timer);
      resolve(false);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** What `withRetries` needs to run and judge attempts. */
export interface RetryRun<T> {
  /** Starts one attempt; its events are passed on as they come. */
  readonly attempt: (attemptNumber: number) => AsyncIterable<T>;
  /** Turns whatever an attempt threw into a `ProviderError` (which says whether it is retryable). */
  readonly toProviderError: (error: unknown) => ProviderError;
  readonly settings: Required<RetrySettings>;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs attempts until one finishes, retrying only a retryable failure that came before anything was
 * passed on (a half-delivered answer cannot be taken back), at most `maxRetries` times, and only
 * when the server asks for no longer a wait than `maxDelayMs`. Before each wait it yields a `retry`
 * event, so whoever shows the call can say why nothing is coming yet.
 */
export async function* withRetries<T>(
  run: RetryRun<T>,
): AsyncGenerator<T | Extract<ModelEvent, { type: 'retry' }>, void, undefined> {
  for (let attempt = 0; ; attempt += 1) {
    let delivered = false;
    try {
      for await (const item of run.attempt(attempt)) {
        delivered = true;
        yield item;
      }
      return;
    } catch (raw) {
      const error = raw instanceof ProviderError ? raw : run.toProviderError(raw);
      // whatever an attempt fails with once the caller has stopped it (the AWS SDK reports a socket
      // torn down mid-stream as a lost connection) is that cancellation
      if (run.signal?.aborted && error.providerCode !== 'aborted')
        throw transportProviderError(error.provider, 'aborted', raw);
      const last = attempt >= run.settings.maxRetries;
      // a passing failure the caller hears of says what was tried and what to do now
      if (error.retryable && delivered) throw givenUpError(error, attempt + 1, 'delivered');
      if (error.retryable && last && attempt > 0) throw givenUpError(error, attempt + 1, 'spent');
      if (delivered || last || !error.retryable || run.signal?.aborted) throw error;
      // A retry sooner than the server asks is refused again: the caller hears how long to wait.
      if (error.retryAfterMs !== undefined && error.retryAfterMs > run.settings.maxDelayMs) throw error;
      const delay = retryDelay(attempt, run.settings, error.retryAfterMs);
      yield retryNotice(error, attempt + 2, run.settings.maxRetries + 1, delay);
      const waited = await sleep(delay, run.signal);
      // stopped during the wait: a cancellation like any other, not the failure that started the wait
      if (!waited) throw transportProviderError(error.provider, 'aborted', run.signal?.reason);
    }
  }
}
