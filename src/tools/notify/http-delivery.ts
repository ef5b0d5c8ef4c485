import type { Delivery, GatewayFetch, NotifyRefusal } from './gateway.js';
import { OutboundRefused } from './guarded-fetch.js';
import { retryAfterMs } from './retry-after.js';

/** What a service answered that the adapter did not take as delivered. */
export interface Answer {
  readonly status: number;
  /** The service's own words for it (its error field or text). */
  readonly words: string;
  /** When the service said to come back (Retry-After, or a field of its body), in ms. */
  readonly afterMs?: number | undefined;
  /** A refusal code of the adapter's own (e.g. `unknown_chat`); `service_refused` by default. */
  readonly code?: string;
  readonly hints?: readonly string[];
}

/** 429, 408 and 5xx pass; every other answer would be the same next time. */
export function isTransient(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** An answer as a delivery: a transient one is tried again (after the service's wait), the rest are refusals. */
export function answerDelivery(service: string, answer: Answer): Delivery {
  const said = `${service} answered HTTP ${answer.status}: ${answer.words || '(no reason given)'}`;
  if (isTransient(answer.status)) {
    return {
      kind: 'retry',
      reason: said,
      ...(answer.afterMs === undefined ? {} : { afterMs: answer.afterMs }),
    };
  }
  const refusal: NotifyRefusal = {
    code: answer.code ?? 'service_refused',
    message: `${said}. It was not sent, and sending it again would be refused the same way.`,
    ...(answer.hints ? { hints: answer.hints } : {}),
  };
  return { kind: 'refused', refusal };
}

/** The Retry-After header of a response, in ms. */
export function headerWait(response: Response): number | undefined {
  return retryAfterMs(response.headers.get('retry-after'), Date.now());
}

/** Reads a body as JSON, or undefined when it is not JSON. */
export async function jsonBody(response: Response): Promise<Record<string, unknown> | undefined> {
  const text = await response.text().catch(() => '');
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One request as a delivery: `read` judges the response; a refused destination is a refusal, and a
 * connection that failed or timed out is tried again (the message may or may not have arrived).
 */
export async function attempt(
  fetch: GatewayFetch,
  url: string,
  init: RequestInit,
  read: (response: Response) => Promise<Delivery>,
): Promise<Delivery> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (error instanceof OutboundRefused) {
      return { kind: 'refused', refusal: { code: 'outbound_refused', message: error.message } };
    }
    if (init.signal?.aborted) throw error;
    const cause =
      error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    return { kind: 'retry', reason: `the gateway could not be reached (${cause})` };
  }
  return read(response);
}
