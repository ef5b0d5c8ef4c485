import type { ModelRequest, Usage } from '../../core/model.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import { longSessionOf } from './long-session.js';
import { requestChars } from './token-estimate.js';

/**
 * Keeps the provider's token counts of one answer with the size of the request it answered, and lets
 * them calibrate the session's estimate. A store that cannot take it costs only the record.
 */
export async function noteUsage(
  env: TurnEnvironment,
  request: ModelRequest,
  usage: Usage | undefined,
): Promise<void> {
  if (usage === undefined || !(usage.inputTokens > 0)) return;
  const chars = requestChars(request);
  const long = await longSessionOf(env.history, env.store);
  long.calibration.observe(chars, usage.inputTokens);
  try {
    await env.store.recordUsage({
      sessionId: env.sessionId,
      turnId: env.turnId,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      requestChars: chars,
    });
  } catch (error) {
    env.logger.log({
      level: 'warn',
      scope: 'runtime',
      message: `the model's token counts could not be stored: ${(error as Error).message}`,
      fields: { sessionId: env.sessionId },
    });
  }
}
