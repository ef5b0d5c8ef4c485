import type { CompactionRecord } from '../../core/context-records.js';
import type { SessionStore } from '../../core/session-store.js';
import type { SessionHistory } from '../turn/session-history.js';
import { TokenCalibration } from './token-estimate.js';

/** What the runtime knows of a session's size between its turns: the estimate's calibration and the latest compaction. */
export interface LongSession {
  readonly calibration: TokenCalibration;
  /** The latest compaction, undefined when there is none. */
  compaction: CompactionRecord | undefined;
}

/** Kept beside each session's `SessionHistory`, so it lives and goes exactly as that does. */
const bySession = new WeakMap<SessionHistory, Promise<LongSession>>();

async function readLongSession(store: SessionStore, sessionId: string): Promise<LongSession> {
  const calibration = new TokenCalibration();
  for (const usage of await store.listUsage(sessionId))
    calibration.observe(usage.requestChars, usage.inputTokens);
  const compactions = await store.listCompactions(sessionId);
  return { calibration, compaction: compactions.at(-1) };
}

/**
 * The session's size record, read from the store on its first use in this process; not read at all in
 * a session's first turn (its conversation, as read during the turn `turnId`, is that turn's user
 * message alone), where the store can hold no token counts or summary for it. Called once `history`
 * was read during the turn.
 */
export function longSessionOf(
  history: SessionHistory,
  store: SessionStore,
  turnId: string,
): Promise<LongSession> {
  let kept = bySession.get(history);
  if (kept === undefined) {
    kept = history.onlyOpening(turnId)
      ? Promise.resolve({ calibration: new TokenCalibration(), compaction: undefined })
      : readLongSession(store, history.sessionId);
    bySession.set(history, kept);
  }
  return kept;
}
