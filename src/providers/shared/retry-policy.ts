import { ProviderError } from '../../core/errors.js';
import type { RetrySettings } from './provider-config.js';

/**
 * True for a status worth trying again, as the provider SDKs judge it: a request timeout (408), a
 * conflict such as a lock (409), rate limited (429) or a server-side failure (5xx). A server's
 * `x-should-retry` header, when it says `true` or `false`, decides instead.
 */
export function isTransientStatus(status: number | undefined, shouldRetry?: string | null): boolean {
  if (shouldRetry === 'true') return true;
  if (shouldRetry === 'false') return false;
  return status !== undefined && (status === 408 || status === 409 || status === 429 || status >= 500);
}

/** Reads `retry-after-ms` / `retry-after` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(get: (name: string) => string | null | undefined): number | undefined {
  const ms = Number.parseFloat(get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const header = get('retry-after');
  if (!header) return undefined;
  const seconds = Number.parseFloat(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The wait before retry number `retry` (0-based): the server's ask, else exponential back-off with jitter. */
export function retryDelay(retry: number, settings: Required<RetrySettings>, askedMs?: number): number {
  if (askedMs !== undefined) return Math.min(askedMs, settings.maxDelayMs);
  const exponential = settings.baseDelayMs * 2 ** retry;
  return Math.min(exponential * (0.75 + Math.random() * 0.25), settings.maxDelayMs);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
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
 * when the server asks for no longer a wait than `maxDelayMs`.
 */
export async function* withRetries<T>(run: RetryRun<T>): AsyncGenerator<T, void, undefined> {
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
      const last = attempt >= run.settings.maxRetries;
      if (delivered || last || !error.retryable || run.signal?.aborted) throw error;
      // A retry sooner than the server asks is refused again: the caller hears how long to wait.
      if (error.retryAfterMs !== undefined && error.retryAfterMs > run.settings.maxDelayMs) throw error;
      await sleep(retryDelay(attempt, run.settings, error.retryAfterMs), run.signal);
    }
  }
}
