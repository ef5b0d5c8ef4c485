import type { RuntimeEvent } from '../core/events.js';
import type { JsonObject } from '../core/json.js';
import type { Logger } from '../core/logger.js';
import type { NewTurnEvent, SessionStore, StoredTurnEvent } from '../core/session-store.js';
import { type Signals, SLOW_POLL_MS, signalTopics } from '../core/signals.js';
import { EventSubscription, type SubscriptionOptions } from './event-subscription.js';

/** A turn this process runs, as the hub tracks it. */
export interface HubTurn {
  readonly sessionId: string;
  readonly turnId: string;
  /** Stops the turn (the runtime's own stop: it records how the turn ended). */
  readonly stop: () => void;
  /** Settles once every event of the turn is kept and handed out. */
  readonly ended: Promise<void>;
}

/** How the hub is set up. */
export interface TurnHubOptions {
  readonly store: SessionStore;
  readonly logger: Logger;
  /**
   * Wake-ups: the hub publishes a session's topic after each batch it keeps, and a stream reads the
   * store when its session's topic is published by a turn running elsewhere; a stop asked for in
   * another process arrives here as its own topic.
   */
  readonly signals: Signals;
  /**
   * How often a stream reads the store while no turn of its session runs in this process (ms): default
   * 1 s with signals that stay in this process, 5 s when they reach other processes (then a read
   * follows each signal, and the poll only covers a lost one).
   */
  readonly pollMs?: number;
}

/** How long the hub keeps retrying a batch of events the store will not take. */
const WRITE_TRIES = 50;
const WRITE_RETRY_MS = 100;

/**
 * Runs turns' event streams for the server: each event is kept in the store (a batch per tick, one
 * transaction), then handed to the streams subscribed to its session here and signalled to every
 * other process. A stream reads what it missed from the store, so a reconnect, or a turn another
 * process runs on the same store, loses nothing.
 */
export class TurnHub {
  private readonly turns = new Map<string, HubTurn>();
  private readonly subscribers = new Map<string, Set<EventSubscription>>();
  /** The last id handed out per session while a turn of it runs here: a batch right after it is whole. */
  private readonly lastIds = new Map<string, number>();
  private pending: NewTurnEvent[] = [];
  private flushing: Promise<void> | undefined;
  private scheduled = false;

  constructor(private readonly options: TurnHubOptions) {}

  /** The turn running on `sessionId` in this process, if any. */
  running(sessionId: string): HubTurn | undefined {
    return this.turns.get(sessionId);
  }

  /** Every turn running in this process. */
  runningTurns(): HubTurn[] {
    return [...this.turns.values()];
  }

  /**
   * Takes a started turn's events (its `turn-start` already read, as `first`) and keeps them flowing
   * into the store and out to subscribers until its `turn-end`.
   */
  run(
    first: Extract<RuntimeEvent, { type: 'turn-start' }>,
    rest: AsyncIterator<RuntimeEvent>,
    stop: () => void,
  ): HubTurn {
    const { sessionId, turnId } = first;
    // A person connected to another process may ask for the stop.
    const unsubscribe = this.options.signals.subscribe(signalTopics.stopTurn(sessionId), () => stop());
    const ended = (async () => {
      this.push(sessionId, turnId, first);
      try {
        for (let next = await rest.next(); !next.done; next = await rest.next()) {
          this.push(sessionId, turnId, next.value);
        }
      } catch (error) {
        this.options.logger.log({
          level: 'warn',
          scope: 'server',
          message: `the events of turn ${turnId} stopped: ${(error as Error).message}`,
        });
      }
      await this.flushed();
    })().finally(() => {
      unsubscribe();
      if (this.turns.get(sessionId)?.turnId === turnId) this.turns.delete(sessionId);
      // Another process may run the next turn of the session: its first batch is read from the store.
      this.lastIds.delete(sessionId);
      this.wake(sessionId);
    });
    const turn: HubTurn = { sessionId, turnId, stop, ended };
    this.turns.set(sessionId, turn);
    return turn;
  }

  /**
   * Keeps the end of a turn no process ran to its end here (one stopped while parked or queued), so
   * every stream of its session, in any process, sees it end.
   */
  async keepEnd(end: Extract<RuntimeEvent, { type: 'turn-end' }>, sessionId: string): Promise<void> {
    this.push(sessionId, end.turnId, end);
    await this.flushed();
  }

  /**
   * Keeps one event of a turn no process runs here (a subagent leaf's progress or question, among its
   * parked parent turn's events), so every stream of the session, in any process, sees it.
   */
  keep(sessionId: string, turnId: string, event: RuntimeEvent): void {
    this.push(sessionId, turnId, event);
  }

  /** A stream of the session's kept events after `after`, then live; ends when `signal` aborts. */
  subscribe(sessionId: string, options: SubscriptionOptions): EventSubscription {
    const { signals } = this.options;
    const pollMs = this.options.pollMs ?? (signals.reachesOtherProcesses ? SLOW_POLL_MS : 1_000);
    const subscription = new EventSubscription(this.options.store, sessionId, options, {
      localTurn: () => this.turns.has(sessionId),
      pollMs,
      leave: () => {
        unsubscribe();
        const set = this.subscribers.get(sessionId);
        set?.delete(subscription);
        if (set?.size === 0) this.subscribers.delete(sessionId);
      },
    });
    // A turn running here hands its events over directly; a signal means another process kept some.
    const unsubscribe = signals.subscribe(signalTopics.sessionEvents(sessionId), () => {
      if (!this.turns.has(sessionId)) subscription.offer([], undefined);
    });
    let set = this.subscribers.get(sessionId);
    if (!set) {
      set = new Set();
      this.subscribers.set(sessionId, set);
    }
    set.add(subscription);
    return subscription;
  }

  /** Ends every stream (a shutdown). */
  endStreams(): void {
    for (const set of this.subscribers.values()) for (const s of set) s.end();
  }

  /** How many streams are open. */
  get streams(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  private push(sessionId: string, turnId: string, event: RuntimeEvent): void {
    this.pending.push({ sessionId, turnId, type: event.type, data: event as unknown as JsonObject });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /** Resolves once everything pushed so far is kept and handed out. */
  async flushed(): Promise<void> {
    while (this.pending.length > 0 || this.flushing) await this.flush();
  }

  /** Writes what is pending, one batch at a time, in order. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.length === 0) return Promise.resolve();
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.write(batch).finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(batch: NewTurnEvent[]): Promise<void> {
    let kept: StoredTurnEvent[] | undefined;
    for (let attempt = 1; kept === undefined; attempt++) {
      try {
        kept = await this.options.store.appendTurnEvents(batch);
      } catch (error) {
        if (attempt >= WRITE_TRIES) {
          this.options.logger.log({
            level: 'error',
            scope: 'server',
            message: `${batch.length} turn events could not be kept: ${(error as Error).message}`,
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS));
      }
    }
    const bySession = new Map<string, StoredTurnEvent[]>();
    for (const event of kept) {
      const list = bySession.get(event.sessionId);
      if (list) list.push(event);
      else bySession.set(event.sessionId, [event]);
    }
    for (const [sessionId, events] of bySession) {
      const before = this.lastIds.get(sessionId);
      if (this.turns.has(sessionId)) this.lastIds.set(sessionId, (events.at(-1) as StoredTurnEvent).id);
      for (const s of this.subscribers.get(sessionId) ?? []) s.offer(events, before);
      void this.options.signals.publish(signalTopics.sessionEvents(sessionId));
    }
  }

  private wake(sessionId: string): void {
    for (const s of this.subscribers.get(sessionId) ?? []) s.offer([], undefined);
  }
}
