import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ProviderError } from '../../core/errors.js';
import { isPlainObject } from '../../core/json.js';
import type { ErrorBodyCapture } from '../shared/error-body-capture.js';
import { streamProviderError } from '../shared/provider-errors.js';
import { stainlessProviderError } from '../shared/stainless-errors.js';

const CLASSES = { APIError, APIUserAbortError, APIConnectionTimeoutError, APIConnectionError };

function str(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function innerOf(error: { error: unknown }): Record<string, unknown> {
  return isPlainObject(error.error) ? error.error : {};
}

/**
 * Any error the `openai` SDK threw → `ProviderError`. The raw body comes from the capturing `fetch`
 * (the SDK keeps only a top-level `error` key); a mid-stream error keeps the error object it carried.
 */
export function openaiProviderError(
  error: unknown,
  provider: string,
  capture: ErrorBodyCapture,
): ProviderError {
  const keepInner = (e: { error: unknown }) =>
    e.error === undefined ? '' : JSON.stringify({ error: e.error });
  const converted = stainlessProviderError(error, {
    provider,
    classes: CLASSES,
    capture,
    bodyFallback: keepInner,
    codeFallback: (e) => str(innerOf(e)['code']) ?? str(innerOf(e)['type']),
  });
  if (converted) return converted;
  const api = error as APIError;
  const inner = innerOf(api);
  return streamProviderError({
    provider,
    code: str(inner['code']) ?? str(inner['type']),
    message: str(inner['message']) ?? api.message,
    rawBody: keepInner(api),
    cause: error,
  });
}

/**
 * The error a server put inside a 200 whole answer, or undefined. OpenRouter answers 200 once a request
 * is accepted and, when the model then fails, puts `{error:{code,message}}` in the body; the SDK hands
 * that back as a completion, which would read as an empty answer. Judged like an error inside a stream.
 */
export function errorInAnswer(body: unknown, provider: string): ProviderError | undefined {
  const inner = isPlainObject(body) ? body['error'] : undefined;
  if (!isPlainObject(inner)) return undefined;
  return streamProviderError({
    provider,
    code: str(inner['code']) ?? str(inner['type']),
    message: str(inner['message']) ?? 'the answer carried an error instead of a reply',
    rawBody: JSON.stringify(body),
    cause: inner,
  });
}
