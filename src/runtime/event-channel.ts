interface Waiter<T> {
  resolve(result: IteratorResult<T>): void;
  reject(error: unknown): void;
}

/**
 * A push-to-pull queue: producers `push`, one consumer iterates; `close` ends the iteration. A consumer
 * that leaves before the end (`break` out of its loop) calls `onAbandon`.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private waiter: Waiter<T> | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;

  constructor(private readonly onAbandon?: () => void) {}

  /** Adds an item (ignored after close). */
  push(item: T): void {
    if (this.closed) return;
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter.resolve({ value: item, done: false });
    else this.buffer.push(item);
  }

  /** Ends the stream after what is buffered; with an error, the consumer's read after the buffer throws it. */
  close(error?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    if (error !== undefined) this.failure = { error };
    const waiter = this.waiter;
    this.waiter = undefined;
    if (!waiter) return;
    if (this.failure) waiter.reject(this.failure.error);
    else waiter.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift() as T, done: false });
        if (this.closed) {
          return this.failure
            ? Promise.reject(this.failure.error)
            : Promise.resolve({ value: undefined, done: true });
        }
        return new Promise<IteratorResult<T>>((resolve, reject) => {
          this.waiter = { resolve, reject };
        });
      },
      return: () => {
        const early = !this.closed;
        this.closed = true;
        this.buffer.length = 0;
        if (early) this.onAbandon?.();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
