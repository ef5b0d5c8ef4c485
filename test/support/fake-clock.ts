import type { Clock } from '../../src/runtime/automations/clock.js';

/** A clock that moves only when a test moves it; sleepers wake when their time is reached. */
export class FakeClock implements Clock {
  private readonly sleepers: { until: number; wake: () => void }[] = [];

  constructor(private t: number) {}

  now(): number {
    return this.t;
  }

  /** How many are sleeping right now. */
  get sleeping(): number {
    return this.sleepers.length;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const sleeper = { until: this.t + ms, wake: () => resolve() };
      if (signal.aborted) return resolve();
      this.sleepers.push(sleeper);
      signal.addEventListener('abort', () => {
        this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
        resolve();
      });
    });
  }

  /** Moves time to `ms` (epoch) and wakes whoever's sleep ends by then. */
  set(ms: number): void {
    this.t = ms;
    for (const sleeper of [...this.sleepers]) {
      if (sleeper.until <= ms) {
        this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
        sleeper.wake();
      }
    }
  }
}
