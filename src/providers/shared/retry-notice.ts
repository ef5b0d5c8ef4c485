import type { ProviderError } from '../../core/errors.js';
import type { ModelEvent, ModelRetry } from '../../core/model.js';
import { FIRST_BYTE_CODE } from './first-byte.js';
import { RATE_LIMIT_CODE } from './retry-advice.js';

/** Provider codes that mean the provider is overloaded (Anthropic's 529, Bedrock's ServiceUnavailable). */
const OVERLOADED_CODE = /overload|unavailable/i;

/** What a passing failure was, in a few words a person reads while toolseam waits. */
export function retryReason(error: ProviderError): string {
  const code = error.providerCode ?? '';
  if (error.status === 429 || RATE_LIMIT_CODE.test(code)) return 'rate limited';
  if (error.status === 529 || OVERLOADED_CODE.test(code)) return 'overloaded';
  if (error.status === 408) return 'the request timed out';
  if (error.status === 409) return 'a conflict on the server';
  if (error.status !== undefined && error.status >= 500) return 'server error';
  if (error.status === undefined && code === 'timeout') return 'no answer in time';
  if (error.status === undefined && code === FIRST_BYTE_CODE) return 'the answer did not start in time';
  if (error.status === undefined && code === 'connection') return 'the connection was lost';
  return error.status === undefined ? code || 'a passing failure' : 'asked to try again';
}

/** The `retry` event for attempt `attempt` (1-based) of `maxAttempts`, made after waiting `waitMs`. */
export function retryNotice(
  error: ProviderError,
  attempt: number,
  maxAttempts: number,
  waitMs: number,
): Extract<ModelEvent, { type: 'retry' }> {
  const notice: ModelRetry = {
    provider: error.provider,
    ...(error.status === undefined ? {} : { status: error.status }),
    reason: retryReason(error),
    attempt,
    maxAttempts,
    waitMs: Math.round(waitMs),
  };
  return { type: 'retry', ...notice };
}
