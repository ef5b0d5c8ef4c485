/**
 * Wake-up calls between the parts of a host, and between processes sharing one store.
 *
 * A signal says only "look again": the store holds the truth, and a subscriber answers a signal by
 * reading it. So a signal may be lost (a dropped connection, a process that was not listening yet) at
 * the cost of latency only, as long as a subscriber also reads the store on a slow fallback poll (at
 * most once a second; `SLOW_POLL_MS`). A signal may also arrive twice, or for a change the subscriber
 * already read: reading the store again must be harmless.
 *
 * Implementations:
 * - `LocalSignals` (`local-signals.ts`): within one process, the default. No extra process, no timer.
 * - `PgSignals` (`src/store/pg-signals/`): PostgreSQL LISTEN/NOTIFY on one channel, reaching every
 *   process connected to the same database (`reachesOtherProcesses` is true).
 *
 * Topic names are short strings; `signalTopics` below names the ones toolseam publishes. Other parts
 * (the job queue, workers) may add their own with their own prefix (`queue:…`).
 */
export interface Signals {
  /**
   * Wakes every subscriber of `topic`: in this process at once, and in the other processes the
   * implementation reaches. `payload` (at most `MAX_SIGNAL_PAYLOAD` characters) is a hint passed to
   * listeners as it was given, never a substitute for reading the store. Never rejects: a signal
   * that cannot be sent is logged and left to the subscribers' slow poll.
   */
  publish(topic: string, payload?: string): Promise<void>;
  /**
   * Calls `listener` after each publish of `topic` until the returned function is called. Listeners run
   * outside the publisher's call stack and must not throw (what they throw is dropped). After a lost
   * connection an implementation wakes every listener once, since signals may have been missed.
   */
  subscribe(topic: string, listener: SignalListener): () => void;
  /** True when a publish here wakes subscribers in other processes, so waiters may poll slowly. */
  readonly reachesOtherProcesses: boolean;
  /** Stops listening and sending; later publishes are dropped and listeners are not called again. */
  close(): Promise<void>;
}

/** What a subscriber is called with: the topic and the publisher's hint (undefined after a reconnect). */
export type SignalListener = (topic: string, payload: string | undefined) => void;

/** The longest hint a signal carries (PostgreSQL's NOTIFY takes under 8,000 bytes, topic included). */
export const MAX_SIGNAL_PAYLOAD = 1_000;

/** How often a waiter that trusts signals still reads the store, in case one was lost (ms). */
export const SLOW_POLL_MS = 5_000;

/** The topics toolseam itself publishes. */
export const signalTopics = {
  /** New events of a session's turns are in the store (`turn_events`), or a turn of it ended. */
  sessionEvents: (sessionId: string): string => `events:${sessionId}`,
  /** An approval was answered or closed in the store. */
  approval: (approvalId: string): string => `approval:${approvalId}`,
  /** A person asked for a session's running turn to stop (the process running it stops it). */
  stopTurn: (sessionId: string): string => `stop:${sessionId}`,
} as const;
