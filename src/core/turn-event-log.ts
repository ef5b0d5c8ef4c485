import type { JsonObject } from './json.js';

/** One event of a turn to keep, as it was sent to the turn's host. */
export interface NewTurnEvent {
  readonly sessionId: string;
  readonly turnId: string;
  /** The RuntimeEvent's `type`. */
  readonly type: string;
  /** The event as JSON. */
  readonly data: JsonObject;
}

/** A kept event: its id increases with every event appended to the store, whichever connection wrote it. */
export interface StoredTurnEvent extends NewTurnEvent {
  readonly id: number;
  readonly createdAt: string;
}

/** Which kept events to read: a session's (or one turn's) after an id, oldest first. */
export interface TurnEventFilter {
  /** A session's events; at least one of `sessionId` and `turnId` is given. */
  readonly sessionId?: string | undefined;
  readonly turnId?: string | undefined;
  /** Only events with a larger id (default 0: from the first). */
  readonly after?: number | undefined;
  /** At most this many (default 1000). */
  readonly limit?: number | undefined;
}

/** The events of turns as they were sent, so a stream can be replayed from any point, in any process. */
export interface TurnEventLog {
  /**
   * Appends events (of any turns) in one transaction, in the order given, and returns them with their
   * ids. A reader never sees a later id committed before an earlier one.
   */
  appendTurnEvents(events: readonly NewTurnEvent[]): Promise<StoredTurnEvent[]>;
  /** The events the filter matches, oldest (smallest id) first. */
  listTurnEvents(filter: TurnEventFilter): Promise<StoredTurnEvent[]>;
  /** The largest id of a session's events below `before` (any, when absent); 0 when there is none. */
  lastTurnEventId(sessionId: string, before?: number): Promise<number>;
}
