import type { StoredMessage } from '../../core/session-records.js';

/**
 * Where to cut a conversation (`live`: the messages no summary covers yet, oldest first) so that the
 * messages from the cut on take at most `keepTokens`: the index of the first message kept, or undefined
 * when nothing can be summarized. A cut falls only where a user message begins a turn, and only where
 * every call before it has its result before it too (a call waiting for approval, or a result written
 * later, keeps its whole turn verbatim): a call is never parted from its result. The latest turn is
 * always kept, however long.
 */
export function compactionCut(
  live: readonly StoredMessage[],
  keepTokens: number,
  tokensOf: (message: StoredMessage) => number,
): number | undefined {
  // calls not answered by the end of each prefix: a cut is only clean where that count is zero
  const unanswered = new Set<string>();
  const clean: boolean[] = [];
  for (const stored of live) {
    clean.push(unanswered.size === 0);
    const m = stored.message;
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) unanswered.add(call.id);
    if (m.role === 'tool') unanswered.delete(m.toolCallId);
  }
  let best: number | undefined;
  let kept = 0;
  for (let i = live.length - 1; i > 0; i -= 1) {
    const stored = live[i] as StoredMessage;
    kept += tokensOf(stored);
    if (stored.message.role !== 'user' || !clean[i]) continue;
    // the latest clean turn start is taken whatever its size; earlier ones only while they fit
    if (best !== undefined && kept > keepTokens) break;
    best = i;
  }
  return best;
}
