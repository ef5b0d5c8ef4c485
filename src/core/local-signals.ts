import { MAX_SIGNAL_PAYLOAD, type SignalListener, type Signals } from './signals.js';

/** Signals within one process: a map of topics to listeners, nothing else. */
export class LocalSignals implements Signals {
  readonly reachesOtherProcesses = false;
  private readonly listeners = new Map<string, Set<SignalListener>>();
  private closed = false;

  async publish(topic: string, payload?: string): Promise<void> {
    this.deliver(topic, payload);
  }

  subscribe(topic: string, listener: SignalListener): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(topic);
      current?.delete(listener);
      if (current?.size === 0) this.listeners.delete(topic);
    };
  }

  /** Calls the listeners of `topic` on a later tick (a publisher never runs its subscribers' code inline). */
  deliver(topic: string, payload: string | undefined): void {
    if (this.closed) return;
    const set = this.listeners.get(topic);
    if (!set || set.size === 0) return;
    const hint = payload === undefined ? undefined : payload.slice(0, MAX_SIGNAL_PAYLOAD);
    queueMicrotask(() => {
      for (const listener of [...set]) {
        try {
          listener(topic, hint);
        } catch {
          // A listener's failure is its own; the others still wake.
        }
      }
    });
  }

  /** Calls every listener once (after a lost connection, signals may have been missed). */
  deliverAll(): void {
    for (const topic of [...this.listeners.keys()]) this.deliver(topic, undefined);
  }

  /** The topics someone listens to here. */
  topics(): string[] {
    return [...this.listeners.keys()];
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
  }
}
