import type { ContextOverflowError } from '../../core/context-overflow.js';
import type { ModelRequest } from '../../core/model.js';
import type { TurnEnd } from '../turn/turn-end.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import { windowOf } from './fit-request.js';
import { longSessionOf } from './long-session.js';
import { requestChars } from './token-estimate.js';

/**
 * What a provider's "too long for the context window" answer leads to: the first time in a turn, the
 * next request is made after a compaction (see `fitRequest`) and sent once more; the second time, the
 * turn ends and says what the person can do.
 */
export async function answerContextOverflow(
  env: TurnEnvironment,
  state: TurnState,
  request: ModelRequest,
  error: ContextOverflowError,
): Promise<{ readonly end: TurnEnd } | { readonly leftOut: true }> {
  const long = await longSessionOf(env.history, env.store, env.turnId);
  // the provider's own count is the best calibration there is
  if (error.promptTokens !== undefined) long.calibration.observe(requestChars(request), error.promptTokens);
  env.logger.log({
    level: 'info',
    scope: 'runtime',
    message: `${env.model.provider} refused the request as too long for ${env.model.model}'s context window${state.overflowed === undefined ? '; older turns are summarized and it is sent once more' : ' again'}`,
    fields: { provider: env.model.provider, status: error.status ?? 0, said: error.message },
  });
  if (state.overflowed === undefined) {
    state.overflowed = 'compact';
    return { leftOut: true };
  }
  const limit = error.limitTokens ?? windowOf(env);
  return {
    end: {
      status: 'failed',
      message: `The conversation is still too long for ${env.model.model} (about ${limit.toLocaleString('en-US')} tokens of context) after its older turns were summarized, so ${env.model.provider} refused it again. The latest turn alone may be too large: start a new session, ask for less at once, or choose a model with a larger context window (config "contextWindow" tells toolseam its size).`,
      errorCode: 'context_overflow',
    },
  };
}
