import type { TurnContext } from './turn-context.js';

/** What follows the kept part of an answer whose stream failed: the model reads it in later turns. */
export const CUT_OFF_NOTE =
  "[This answer was cut off here: the model provider's stream failed before it was finished, so the person saw only the part above, and no tool call begun in it was made.]";

/**
 * Keeps in the session the text a failed model call had already shown the person, marked as cut off,
 * so the next turn's model knows what was said. Only the text: a tool call from the failed stream was
 * never run and is never stored (a call without its result would break the history every provider reads).
 */
export function keepCutOffAnswer(ctx: TurnContext, shown: string): void {
  if (shown.trim() === '') return;
  try {
    ctx.store.appendMessage(ctx.turnId, {
      role: 'assistant',
      content: `${shown.trimEnd()}\n\n${CUT_OFF_NOTE}`,
    });
  } catch (error) {
    // the provider's failure is what ends the turn; a store that cannot take the text must not hide it
    ctx.logger.log({
      level: 'warn',
      scope: 'runtime',
      message: `could not keep the cut-off answer of turn ${ctx.turnId}: ${(error as Error).message}`,
    });
  }
}
