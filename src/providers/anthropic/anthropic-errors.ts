import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type { ProviderError } from '../../core/errors.js';
import { isPlainObject } from '../../core/json.js';
import type { ErrorBodyCapture } from '../shared/error-body-capture.js';
import { streamProviderError } from '../shared/provider-errors.js';
import { stainlessProviderError } from '../shared/stainless-errors.js';

const CLASSES = { APIError, APIUserAbortError, APIConnectionTimeoutError, APIConnectionError };

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The SDK's `error` is the whole body, `{type:"error", error:{type,message}, request_id}`. */
function partsOf(error: { error: unknown }) {
  const body = isPlainObject(error.error) ? error.error : {};
  const inner = isPlainObject(body['error']) ? body['error'] : body;
  return { body, inner };
}

/**
 * Any error the Anthropic SDK threw → `ProviderError`. The raw body comes from the capturing `fetch`; an
 * `error` event inside a stream keeps the event's payload.
 */
export function anthropicProviderError(error: unknown, capture: ErrorBodyCapture): ProviderError {
  const provider = 'anthropic';
  const keepBody = (e: { error: unknown }) => (e.error === undefined ? '' : JSON.stringify(e.error));
  const converted = stainlessProviderError(error, {
    provider,
    classes: CLASSES,
    capture,
    bodyFallback: keepBody,
    codeFallback: (e) => str(partsOf(e).inner['type']),
  });
  if (converted) return converted;
  const api = error as APIError;
  const { body, inner } = partsOf(api);
  return streamProviderError({
    provider,
    code: str(inner['type']),
    message: str(inner['message']) ?? api.message,
    rawBody: keepBody(api),
    requestId: str(body['request_id']),
    cause: error,
  });
}
