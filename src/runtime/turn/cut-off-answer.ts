import type { TurnEnvironment } from './turn-environment.js';

/** What follows the kept part of an answer whose stream failed: the model reads it in later turns. */
export const CUT_OFF_NOTE =
  "[This answer was cut off here: the model provider's stream failed before it was finished, so the person saw only the part above, and no tool call begun in it was made.]";

/** What follows the kept part of an answer the person stopped (Ctrl-C, or their host stopped the turn). */
export const STOPPED_NOTE =
  '[The person stopped this answer here, before it was finished: they saw only the part above, and no tool call begun in it was made.]';

/** The same for a subagent leaf, which its batch stops (the parent turn was stopped, or the leaf ran out of time). */
export const LEAF_STOPPED_NOTE =
  '[This answer was stopped here, before it was finished (the batch was stopped or this task ran out of time): only the part above was given, and no tool call begun in it was made.]';

/**
 * Keeps in the session the text a failed model call had already shown the person, marked as cut off,
 * so the next turn's model knows what was said. Only the text: a tool call from the failed stream was
 * never run and is never stored (a call without its result would break the history every provider reads).
 */
export async function keepCutOffAnswer(env: TurnEnvironment, shown: string): Promise<void> {
  await keepShownText(env, shown, CUT_OFF_NOTE);
}

/**
 * Keeps in the session the text a model call had already shown when its turn was stopped, marked as
 * stopped there; as with a cut-off answer, only the text, never a call begun in it.
 */
export async function keepStoppedAnswer(env: TurnEnvironment, shown: string): Promise<void> {
  await keepShownText(env, shown, env.leaf ? LEAF_STOPPED_NOTE : STOPPED_NOTE);
}

async function keepShownText(env: TurnEnvironment, shown: string, note: string): Promise<void> {
  if (shown.trim() === '') return;
  try {
    await env.store.appendMessage(env.turnId, {
      role: 'assistant',
      content: `${shown.trimEnd()}\n\n${note}`,
    });
  } catch (error) {
    // how the turn ends (a failure, a stop) is what matters; a store that cannot take the text must not hide it
    env.logger.log({
      level: 'warn',
      scope: 'runtime',
      message: `could not keep the unfinished answer of turn ${env.turnId}: ${(error as Error).message}`,
    });
  }
}
