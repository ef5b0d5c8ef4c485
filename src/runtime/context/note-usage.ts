import type { ReplyUsage } from '../../core/context-records.js';
import type { ModelRequest, Usage } from '../../core/model.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import { longSessionOf } from './long-session.js';
import { requestChars } from './token-estimate.js';

/**
 * Lets the provider's token counts of one answer calibrate the session's estimate, and returns them
 * with the size of the request they answer, for the store to keep with the reply (undefined when the
 * provider gave none).
 */
export async function observeUsage(
  env: TurnEnvironment,
  request: ModelRequest,
  usage: Usage | undefined,
): Promise<ReplyUsage | undefined> {
  if (usage === undefined || !(usage.inputTokens > 0)) return undefined;
  const chars = requestChars(request);
  const long = await longSessionOf(env.history, env.store, env.turnId);
  long.calibration.observe(chars, usage.inputTokens);
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, requestChars: chars };
}

/**
 * Keeps token counts that have no reply to travel with (an answer the person stopped, a summary). A store that
 * cannot take them costs only the record.
 */
export async function keepUsage(env: TurnEnvironment, usage: ReplyUsage | undefined): Promise<void> {
  if (usage === undefined) return;
  try {
    await env.store.recordUsage({ ...usage, sessionId: env.sessionId, turnId: env.turnId });
  } catch (error) {
    env.logger.log({
      level: 'warn',
      scope: 'runtime',
      message: `the model's token counts could not be stored: ${(error as Error).message}`,
      fields: { sessionId: env.sessionId },
    });
  }
}
