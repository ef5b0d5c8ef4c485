import { ProviderError, waitWords } from '../../core/errors.js';
import { FIRST_BYTE_CODE } from './first-byte.js';

/** Why the retrying of a passing failure stopped: every retry was spent, or part of the answer had come. */
export type GivingUp = 'spent' | 'delivered';

/** Provider codes that mean a rate limit or throttling, when no 429 says so. */
export const RATE_LIMIT_CODE = /rate.?limit|throttl|quota|resource_exhausted/i;

/** What a person can do once the retries of `error` are spent. */
function spentAdvice(error: ProviderError, attempts: number): string {
  const tried = `Tried ${attempts} times; `;
  // the provider's own wait, when it gave one, rather than a guess beside it
  const asked =
    error.retryAfterMs === undefined
      ? undefined
      : `${error.provider} asks to wait ${waitWords(error.retryAfterMs)}`;
  if (error.status === 429 || RATE_LIMIT_CODE.test(error.providerCode ?? ''))
    return asked
      ? `${tried}the rate limit had not lifted: ${asked}, then send the message again (if it keeps happening, check the account's limits).`
      : `${tried}the rate limit had not lifted: wait a minute, then send the message again (if it keeps happening, check the account's limits).`;
  if (asked) return `${tried}${asked}, then send the message again.`;
  if (error.status === undefined && error.providerCode === FIRST_BYTE_CODE)
    return `${tried}send the message again, or give the model longer to start answering with --first-byte-timeout (or "firstByteTimeoutMs" in the model settings).`;
  if (error.status === undefined && error.providerCode === 'timeout')
    return `${tried}send the message again, or allow the model more time with "timeoutMs" in the model settings.`;
  // a lost connection's own message already says what to check
  if (error.status === undefined && error.providerCode === 'connection') return `Tried ${attempts} times.`;
  return `${tried}this is trouble on ${error.provider}'s side that usually passes: send the message again in a minute or two.`;
}

/**
 * `error` (a passing failure toolseam stopped retrying) with a closing sentence saying what was tried
 * and what to do now: after spent retries, how often it tried; after part of the answer had come, that
 * what arrived is incomplete and was not asked for again.
 */
export function givenUpError(error: ProviderError, attempts: number, why: GivingUp): ProviderError {
  const advice =
    why === 'delivered'
      ? 'Part of the answer had already arrived, so it was not asked for again (it would have started over); what arrived is incomplete. Send the message again for a whole answer.'
      : spentAdvice(error, attempts);
  const said = /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
  return new ProviderError({
    provider: error.provider,
    status: error.status,
    message: `${said} ${advice}`,
    providerCode: error.providerCode,
    retryable: error.retryable,
    requestId: error.requestId,
    rawBody: error.rawBody,
    retryAfterMs: error.retryAfterMs,
    attempts,
    cause: error.cause,
  });
}
