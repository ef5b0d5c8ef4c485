import { isPlainObject } from '../../core/json.js';
import type { HeaderReader } from './header-reader.js';

/** The families of rate-limit headers: each limit has a `remaining` count and a `reset` time. */
const LIMIT_HEADERS: readonly { readonly remaining: string; readonly reset: string }[] = [
  // OpenAI and many OpenAI-compatible servers (Groq, Together…): a duration such as `6m0s` or `120ms`
  ...['requests', 'tokens'].map((limit) => ({
    remaining: `x-ratelimit-remaining-${limit}`,
    reset: `x-ratelimit-reset-${limit}`,
  })),
  // Anthropic: an RFC 3339 time of day
  ...['requests', 'tokens', 'input-tokens', 'output-tokens'].map((limit) => ({
    remaining: `anthropic-ratelimit-${limit}-remaining`,
    reset: `anthropic-ratelimit-${limit}-reset`,
  })),
];

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };

/** `6m0s`, `1h2m3.5s`, `120ms`, `38.9s` or a bare number of seconds, in milliseconds. */
function durationMs(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) return undefined;
  return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * (UNIT_MS[unit as string] ?? 0), 0);
}

/** A reset given as a duration or as a time of day, as a wait from now in milliseconds. */
function resetWaitMs(text: string): number | undefined {
  const duration = durationMs(text);
  if (duration !== undefined) return duration;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * The wait until the spent limits reset, read from the rate-limit headers: the latest reset among the
 * limits whose `remaining` is 0. Undefined when no limit says it is spent (a reset time alone tells
 * nothing of why this request was refused).
 */
function spentLimitWaitMs(header: HeaderReader): number | undefined {
  let wait: number | undefined;
  for (const { remaining, reset } of LIMIT_HEADERS) {
    if (header(remaining)?.trim() !== '0') continue;
    const resetText = header(reset);
    const ms = resetText ? resetWaitMs(resetText) : undefined;
    if (ms !== undefined) wait = Math.max(wait ?? 0, ms);
  }
  return wait;
}

/** The `retryDelay` of a Google `RetryInfo` detail (Gemini, also inside its OpenAI-compatible array), in ms. */
function retryInfoMs(rawBody: string): number | undefined {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return undefined;
  }
  if (Array.isArray(body)) body = body[0];
  const error = isPlainObject(body) ? body['error'] : undefined;
  const details = isPlainObject(error) ? error['details'] : undefined;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (!isPlainObject(detail) || typeof detail['retryDelay'] !== 'string') continue;
    if (!String(detail['@type'] ?? '').endsWith('google.rpc.RetryInfo')) continue;
    // a protobuf duration: decimal seconds with up to nine fractional digits, e.g. `38.922534355s`
    const match = /^(\d+(?:\.\d+)?)s$/.exec(detail['retryDelay'].trim());
    if (match) return Math.ceil(Number(match[1]) * 1000);
  }
  return undefined;
}

/**
 * How long a refused request should wait when the answer has no `retry-after`: Gemini says so only in its
 * body (`RetryInfo`), and a 429 from OpenAI or Anthropic may say it only in its rate-limit headers.
 */
export function rateLimitWaitMs(status: number, header: HeaderReader, rawBody: string): number | undefined {
  const inBody = retryInfoMs(rawBody);
  if (inBody !== undefined) return inBody;
  if (status !== 429) return undefined;
  const wait = spentLimitWaitMs(header);
  return wait === undefined ? undefined : Math.ceil(wait);
}
