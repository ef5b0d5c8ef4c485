import { RecentMap } from '../../core/recent-map.js';
import { SessionHistory } from './session-history.js';

/** How many sessions' conversations a runtime keeps at most; the least recently used is let go. */
const KEPT_SESSIONS = 64;

/** The conversations a runtime keeps between its turns, one `SessionHistory` per session. */
export class SessionHistories {
  private readonly bySession: RecentMap<string, SessionHistory>;

  constructor(limit = KEPT_SESSIONS) {
    this.bySession = new RecentMap(limit);
  }

  /** The session's kept conversation (read in full on its first use when it is new here). */
  of(sessionId: string): SessionHistory {
    const kept = this.bySession.get(sessionId);
    if (kept !== undefined) return kept;
    const history = new SessionHistory(sessionId);
    this.bySession.set(sessionId, history);
    return history;
  }

  /** Lets a session's conversation go (the session was deleted: a new one may take its id). */
  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}
