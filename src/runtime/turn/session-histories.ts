import { SessionHistory } from './session-history.js';

/** How many sessions' conversations a runtime keeps at most; the least recently used is let go. */
const KEPT_SESSIONS = 64;

/** The conversations a runtime keeps between its turns, one `SessionHistory` per session. */
export class SessionHistories {
  private readonly bySession = new Map<string, SessionHistory>();

  constructor(private readonly limit = KEPT_SESSIONS) {}

  /** The session's kept conversation (read in full on its first use when it is new here). */
  of(sessionId: string): SessionHistory {
    const history = this.bySession.get(sessionId) ?? new SessionHistory(sessionId);
    // Map order is insertion order: taking it out and back in makes it the most recently used.
    this.bySession.delete(sessionId);
    this.bySession.set(sessionId, history);
    if (this.bySession.size > this.limit) {
      const oldest = this.bySession.keys().next().value as string;
      this.bySession.delete(oldest);
    }
    return history;
  }

  /** Lets a session's conversation go (the session was deleted: a new one may take its id). */
  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}
