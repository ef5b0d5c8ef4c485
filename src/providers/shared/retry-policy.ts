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
