import { ProviderError } from '../../core/errors.js';
import type { ErrorBodyCapture } from './error-body-capture.js';
import { isLostConnection } from './lost-connection.js';
import { httpProviderError, transportProviderError } from './provider-errors.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes of an SDK generated the same way as `openai` and `@anthropic-ai/sdk`. */
export interface StainlessErrorClasses {
  readonly APIError: ErrorClass;
  readonly APIUserAbortError: ErrorClass;
  readonly APIConnectionTimeoutError: ErrorClass;
  readonly APIConnectionError: ErrorClass;
}

/** The fields such an SDK's `APIError` carries. */
export interface StainlessApiError {
  readonly status: number | undefined;
  readonly headers: Headers | undefined;
  readonly error: unknown;
  readonly message: string;
}

/**
 * The part both SDKs share: cancellations, timeouts and lost connections (also one lost mid-stream), and HTTP error answers with the
 * raw body from the capturing `fetch` (`bodyFallback` when none was captured). Returns undefined for an
 * `APIError` without status (an error inside a stream), which each family reads its own way.
 */
export function stainlessProviderError(
  error: unknown,
  fields: {
    provider: string;
    classes: StainlessErrorClasses;
    capture: ErrorBodyCapture;
    bodyFallback: (error: StainlessApiError) => string;
    codeFallback: (error: StainlessApiError) => string | undefined;
  },
): ProviderError | undefined {
  const { provider, classes } = fields;
  if (error instanceof ProviderError) return error;
  if (error instanceof classes.APIUserAbortError) return transportProviderError(provider, 'aborted', error);
  if (error instanceof classes.APIConnectionTimeoutError)
    return transportProviderError(provider, 'timeout', error);
  if (error instanceof classes.APIConnectionError)
    return transportProviderError(provider, 'connection', error);
  if (!(error instanceof classes.APIError)) {
    // a connection dropped mid-answer comes from the body reader, past the SDK's own error classes
    const kind = isLostConnection(error) ? 'connection' : 'unexpected';
    return transportProviderError(provider, kind, error);
  }
  const api = error as unknown as StainlessApiError;
  if (api.status === undefined) return undefined;
  const headers = api.headers;
  return httpProviderError({
    provider,
    status: api.status,
    rawBody: fields.capture.bodyOf(headers) ?? fields.bodyFallback(api),
    header: (name) => headers?.get(name),
    fallbackMessage: api.message,
    fallbackCode: fields.codeFallback(api),
    cause: error,
  });
}
