import { StoreBusyError } from '../../core/store-errors.js';
import type { Runtime } from '../runtime.js';

/**
 * What a kind of job keeps besides its jobs: a sweep run now and then (one at a time, never rejecting:
 * a failure is logged as `what`), and the work under way in this process, which `stop` waits for.
 */
export class JobUpkeep {
  private timer: ReturnType<typeof setInterval> | undefined;
  private sweeping = false;
  private readonly under = new Set<Promise<unknown>>();

  constructor(
    private readonly runtime: Runtime,
    private readonly what: string,
    private readonly sweep: () => Promise<void>,
  ) {}

  /** How much work is under way here. */
  get busy(): number {
    return this.under.size;
  }

  /** Runs the sweep every `everyMs` until `stop`. */
  sweepEvery(everyMs: number): void {
    this.timer = setInterval(() => void this.sweepNow(), everyMs);
    this.timer.unref();
  }

  /** Runs the sweep now, unless one is under way. Never rejects. */
  async sweepNow(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweep();
    } catch (error) {
      // A busy store is met by the next sweep.
      if (!(error instanceof StoreBusyError)) {
        const message = `could not look for ${this.what}: ${(error as Error).message}`;
        this.runtime.logger.log({ level: 'warn', scope: 'jobs', message });
      }
    } finally {
      this.sweeping = false;
    }
  }

  /** Counts `work` as under way here until it settles. */
  async track<T>(work: Promise<T>): Promise<T> {
    this.under.add(work);
    try {
      return await work;
    } finally {
      this.under.delete(work);
    }
  }

  /** Stops the sweep and waits for the work under way here. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled(this.under);
  }
}
