import { ProviderError } from '../../core/errors.js';

/** The provider code of an attempt whose answer did not start within the first-byte deadline. */
export const FIRST_BYTE_CODE = 'first_byte_timeout';

/** `30000` → `30 s`, `1500` → `1.5 s`, `250` → `250 ms`. */
function duration(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms)} ms`;
}

/**
 * One attempt's first-byte deadline: its signal aborts the request when nothing of the answer has come
 * within `ms` (no status and headers, or no first event of a streamed answer); `heard` marks the answer
 * as started. An outer signal (the caller's stop) aborts it too. Without `ms`, it only passes the outer
 * signal on.
 */
export class FirstByteDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private passed = false;
  private readonly onOuterAbort: () => void;

  constructor(
    readonly ms: number | undefined,
    private readonly outer: AbortSignal | undefined,
  ) {
    this.signal = this.controller.signal;
    this.onOuterAbort = () => this.controller.abort(outer?.reason);
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    if (ms !== undefined) {
      this.timer = setTimeout(() => {
        this.passed = true;
        this.controller.abort(new Error(`no answer within ${duration(ms)}`));
      }, ms);
    }
  }

  /** The answer has started: the deadline no longer applies. */
  heard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** True when the deadline passed before the answer started (and the caller had not stopped first). */
  get expired(): boolean {
    return this.passed && !this.outer?.aborted;
  }

  /** The error an attempt that ran past the deadline fails with: retryable, as a lost connection is. */
  error(provider: string, cause: unknown): ProviderError {
    return new ProviderError({
      provider,
      status: undefined,
      message: `${provider} did not start answering within ${duration(this.ms ?? 0)} (the first-byte deadline).`,
      providerCode: FIRST_BYTE_CODE,
      retryable: true,
      cause,
    });
  }

  /** Stops the clock and lets go of the outer signal. */
  release(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}

/**
 * One attempt run under its first-byte deadline: `attempt` sends with the deadline's signal and calls
 * `heard` once its answer starts; an attempt cut by the deadline fails with the deadline's retryable error.
 * The attempt's own iterator is passed on step by step, not through a generator of its own: every event
 * of every answer goes by here, and a generator's `yield*` costs each one another round of promises.
 */
export function underFirstByteDeadline<T>(
  ms: number | undefined,
  signal: AbortSignal | undefined,
  provider: string,
  attempt: (deadline: FirstByteDeadline) => AsyncIterable<T>,
): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const deadline = new FirstByteDeadline(ms, signal);
      let inner: AsyncIterator<T> | undefined;
      const ended = (step: IteratorResult<T>): IteratorResult<T> => {
        if (step.done) deadline.release();
        return step;
      };
      const failed = (error: unknown): never => {
        deadline.release();
        throw deadline.expired ? deadline.error(provider, error) : error;
      };
      return {
        next() {
          try {
            inner ??= attempt(deadline)[Symbol.asyncIterator]();
            return inner.next().then(ended, failed);
          } catch (error) {
            return Promise.reject(error).catch(failed);
          }
        },
        return(value?: unknown) {
          deadline.release();
          const stop = inner?.return?.(value);
          return stop ? stop.then(ended, failed) : Promise.resolve({ done: true, value: value as T });
        },
      };
    },
  };
}
