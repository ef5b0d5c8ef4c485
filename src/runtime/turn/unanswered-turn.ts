import type { SessionStore } from '../../core/session-store.js';
import { headOf } from '../../core/text-cut.js';
import type { SessionHistory } from './session-history.js';
import type { TurnEnd } from './turn-end.js';

/** Longest part of a turn's ending kept in the note that stands in for its answer. */
const MAX_SAID = 300;

/**
 * After a turn that ended without any answer (the model provider failed, the turn was stopped or failed
 * inside toolseam before a reply was recorded): a short assistant note saying so, so the conversation
 * never holds two user messages in a row and the next turn's model knows the earlier message went
 * unanswered, and why. Nothing is added when the turn recorded anything after its user message.
 */
export async function markUnanswered(
  store: SessionStore,
  history: SessionHistory,
  turnId: string,
  end: TurnEnd,
): Promise<void> {
  if (end.status === 'done') return;
  const last = (await history.messages(store)).at(-1);
  if (last === undefined || last.turnId !== turnId || last.message.role !== 'user') return;
  const said = end.message.trim() === '' ? '' : ` (${headOf(end.message.trim(), MAX_SAID)})`;
  const why = end.status === 'stopped' ? 'the turn was stopped' : `the turn ended as ${end.status}${said}`;
  await store.appendMessage(turnId, {
    role: 'assistant',
    content: `[No answer to this message: ${why} before the model replied.]`,
  });
}
