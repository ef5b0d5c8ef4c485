import type { SessionStore, StoredTurnEvent } from '../core/session-store.js';

/** Where a stream starts and what it keeps to. */
export interface SubscriptionOptions {
  /** Only events with a larger id (the client's `Last-Event-ID`); 0: from the session's first. */
  readonly after: number;
  /** Only this turn's events; the stream ends after its `turn-end`. */
  readonly turnId?: string;
}

/** What the hub tells a subscription about the session. */
export interface SubscriptionLinks {
  /** True while a turn of the session runs in this process (its events come by `offer`, not by polling). */
  readonly localTurn: () => boolean;
  readonly pollMs: number;
  /** Called once when the subscription ends. */
  readonly leave: () => void;
}

/** How many events one read of the store takes. */
const PAGE = 500;

/** How many events a stream holds for its client before it leaves the rest in the store. */
const MAX_QUEUED = 2_000;

/**
 * One client's stream of a session's kept events, in id order, each once: what the store holds after
 * the client's last id first, then what the hub offers live. A live batch is taken as it is only when
 * it follows the last event this stream has; otherwise (a gap, another process's turn) the stream reads
 * the store again from its last id, which holds everything in order.
 */
export class EventSubscription implements AsyncIterable<StoredTurnEvent> {
  private readonly queue: StoredTurnEvent[] = [];
  /** The id of the last event of the session queued (whether or not the turn filter kept it). */
  private last: number;
  /** The store may hold events this stream has not read. */
  private stale = true;
  private reading = false;
  private ended = false;
  private turnOver = false;
  private firstRead: boolean;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly store: SessionStore,
    readonly sessionId: string,
    private readonly options: SubscriptionOptions,
    private readonly links: SubscriptionLinks,
  ) {
    this.last = options.after;
    this.firstRead = options.turnId !== undefined;
  }

  /** Live events of the session, kept with ids; `before` is the session's last id before them, when known. */
  offer(events: readonly StoredTurnEvent[], before: number | undefined): void {
    if (this.ended) return;
    // A client that reads slowly leaves its events in the store, not in memory: read them when it is ready.
    const room = this.queue.length < MAX_QUEUED;
    if (events.length > 0 && room && !this.stale && !this.reading && before === this.last) this.take(events);
    else this.stale = true;
    this.wake();
  }

  /** Ends the stream after what is queued. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.links.leave();
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StoredTurnEvent> {
    for (let batch = await this.next(); batch.length > 0; batch = await this.next()) yield* batch;
  }

  /**
   * Every event queued by now, in order (waiting until there is one); empty once the stream is over. A
   * writer that takes them together sends a burst of events in one write.
   */
  async next(): Promise<StoredTurnEvent[]> {
    for (;;) {
      if (this.queue.length > 0) return this.queue.splice(0);
      if (this.ended || this.turnOver) {
        this.end();
        return [];
      }
      if (this.stale) await this.read();
      else await this.sleep();
    }
  }

  /** Reads what the store holds after the last id. */
  private async read(): Promise<void> {
    this.stale = false;
    this.reading = true;
    try {
      const { turnId } = this.options;
      // A turn's own events first, by its index: a reconnect to one turn reads no other turn's.
      const page =
        this.firstRead && turnId !== undefined
          ? await this.store.listTurnEvents({ turnId, after: this.last, limit: PAGE })
          : await this.store.listTurnEvents({ sessionId: this.sessionId, after: this.last, limit: PAGE });
      if (page.length === PAGE) this.stale = true;
      // Until the turn has kept an event, its own index is where to look; then the session follows it.
      else if (page.length > 0) this.firstRead = false;
      this.take(page);
    } finally {
      this.reading = false;
    }
  }

  private take(events: readonly StoredTurnEvent[]): void {
    const { turnId } = this.options;
    for (const event of events) {
      if (event.id <= this.last || this.turnOver) continue;
      this.last = event.id;
      if (turnId !== undefined && event.turnId !== turnId) continue;
      this.queue.push(event);
      if (turnId !== undefined && event.type === 'turn-end') this.turnOver = true;
    }
  }

  /** Waits for an offer, the end, or (no turn of the session running here) the next poll. */
  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.links.localTurn()
        ? undefined
        : setTimeout(() => {
            this.stale = true;
            done();
          }, this.links.pollMs);
      const done = (): void => {
        if (timer) clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      this.wakeUp = done;
    });
  }

  private wake(): void {
    this.wakeUp?.();
  }
}
