/**
 * A Retry-After header as milliseconds from `now`: a number of seconds, or an HTTP date. Undefined when
 * absent or unreadable (the caller's own back-off applies then).
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The back-off before attempt `attempts + 1` when the service said nothing: 2 s doubling, at most 10 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(2000 * 2 ** Math.max(0, attempts - 1), 600_000);
}
