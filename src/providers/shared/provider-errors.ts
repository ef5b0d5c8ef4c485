import { ProviderError } from '../../core/errors.js';
import { overflowOr } from './context-overflow-reading.js';
import { errorBodyFacts } from './error-body.js';
import type { HeaderReader } from './header-reader.js';
import { rateLimitWaitMs } from './rate-limit-hints.js';
import { isTransientStatus, retryAfterMs } from './retry-policy.js';

/** Provider codes of failures that pass (overload, rate limit, a server hiccup) when they come mid-stream. */
const TRANSIENT_CODE =
  /overload|rate.?limit|throttl|server.?error|internal|unavailable|timeout|api_error|model.?stream/i;

/**
 * Provider codes of a 429 that no wait lifts: the account's quota or credit is spent (OpenAI's
 * `insufficient_quota`), so a retry only sends the conversation again to be refused.
 */
const SPENT_QUOTA_CODES = new Set(['insufficient_quota']);

/** A provider's message in one line: its lines (Gemini lists one violation a line, as `* …`) joined with `; `. */
function oneLineMessage(message: string): string {
  const lines = message.split(/\r\n|\r|\n/).map((line) => line.trim().replace(/^[*-]\s+/, ''));
  return lines.filter((line) => line !== '').join('; ');
}

/** The title of an HTML page, '' for a page without one; undefined when `body` is not a page. */
function pageTitle(body: string): string | undefined {
  if (!/^\s*(<!doctype html|<html|<head|<body)/i.test(body)) return undefined;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1];
  return oneLineMessage(title ?? '');
}

/** What an error answer says, in one line; a web page (a proxy's, or a base URL that is not the API) is named as one. */
function answerSentence(
  provider: string,
  status: number,
  rawBody: string,
  said: string | undefined,
  sdk: string,
) {
  const title = said === undefined ? pageTitle(rawBody) : undefined;
  if (title !== undefined) {
    const named = title === '' ? '' : ` (${JSON.stringify(title)})`;
    return `${provider} answered HTTP ${status} with a web page${named} instead of an API answer; check the base URL, or the proxy in between.`;
  }
  if (said === undefined && rawBody.trim() === '')
    return `${provider} answered HTTP ${status} with an empty body.`;
  // the SDKs' own text starts with the status, which the sentence already gives
  const text = said ?? sdk.replace(new RegExp(`^${status}\\s+`), '');
  return `${provider} answered HTTP ${status}: ${oneLineMessage(text)}`;
}

/** A `ProviderError` for an HTTP error answer, reading the raw body for the message, code and request id. */
export function httpProviderError(fields: {
  provider: string;
  status: number;
  rawBody: string;
  header: HeaderReader;
  /** Used when the body carries no message (the SDK's own text). */
  fallbackMessage: string;
  fallbackCode?: string | undefined;
  cause: unknown;
}): ProviderError {
  const facts = errorBodyFacts(fields.rawBody);
  const h = fields.header;
  return overflowOr(
    new ProviderError({
      provider: fields.provider,
      status: fields.status,
      message: answerSentence(
        fields.provider,
        fields.status,
        fields.rawBody,
        facts.message,
        fields.fallbackMessage,
      ),
      providerCode: facts.code ?? fields.fallbackCode,
      retryable:
        !SPENT_QUOTA_CODES.has(facts.code ?? '') && isTransientStatus(fields.status, h('x-should-retry')),
      requestId: h('x-request-id') ?? h('request-id') ?? h('x-amzn-requestid') ?? facts.requestId,
      rawBody: fields.rawBody,
      retryAfterMs: retryAfterMs(h) ?? rateLimitWaitMs(fields.status, h, fields.rawBody),
      cause: fields.cause,
    }),
  );
}

/** Why a call failed without an HTTP status. */
export type TransportFailure = 'timeout' | 'connection' | 'aborted' | 'unexpected';

/**
 * The message of the innermost error `cause` wraps: the SDKs' own (`Connection error.`) and Node's
 * fetch's (`fetch failed`) say nothing of why, the socket's under them does (`connect ECONNREFUSED …`).
 */
function innermostMessage(cause: unknown): string {
  let message = '';
  let current: unknown = cause;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}

/**
 * A `ProviderError` for a failure with no HTTP answer: timeouts and lost connections are retryable; a
 * cancelled call and anything unexpected (an answer that could not be read) are not.
 */
export function transportProviderError(
  provider: string,
  kind: TransportFailure,
  cause: unknown,
): ProviderError {
  const why = innermostMessage(cause);
  const detail = why ? ` (${oneLineMessage(why)})` : '';
  const message =
    kind === 'timeout'
      ? `${provider} did not answer in time${detail}.`
      : kind === 'aborted'
        ? `The request to ${provider} was cancelled.`
        : kind === 'unexpected'
          ? `The call to ${provider} failed${detail}.`
          : `The connection to ${provider} could not be made or was lost${detail}; if it keeps happening, check the base URL and the network.`;
  return new ProviderError({
    provider,
    status: undefined,
    message,
    providerCode: kind,
    retryable: kind === 'timeout' || kind === 'connection',
    cause,
  });
}

/**
 * A `ProviderError` for a stream that ended before its closing event. It counts as a lost connection:
 * retried when nothing of the answer had been passed on yet, a clear failure otherwise.
 */
export function cutStreamError(provider: string): ProviderError {
  return new ProviderError({
    provider,
    status: undefined,
    message: `The answer from ${provider} stopped before it was complete: the stream closed without its closing event (a dropped connection or a proxy may have cut it).`,
    providerCode: 'connection',
    retryable: true,
  });
}

/**
 * True for a mid-stream error code worth trying again. A three-digit number is an HTTP status (OpenRouter
 * sends `{"code": 502}` inside a 200 stream) and is judged as one; other codes are read by their words.
 */
function isTransientStreamCode(code: string | undefined): boolean {
  if (code !== undefined && /^[1-5]\d\d$/.test(code)) return isTransientStatus(Number(code));
  return TRANSIENT_CODE.test(code ?? '');
}

/** A `ProviderError` for an error the provider sent inside an already-started stream. */
export function streamProviderError(fields: {
  provider: string;
  code: string | undefined;
  message: string;
  rawBody: string;
  requestId?: string | undefined;
  cause: unknown;
}): ProviderError {
  return overflowOr(
    new ProviderError({
      provider: fields.provider,
      status: undefined,
      message: `${fields.provider} failed mid-answer: ${oneLineMessage(fields.message)}`,
      providerCode: fields.code,
      retryable: isTransientStreamCode(fields.code),
      requestId: fields.requestId,
      rawBody: fields.rawBody,
      cause: fields.cause,
    }),
  );
}
