/**
 * Tries again, in the background, to list the tools of providers whose listing failed, so a server
 * that was down when the catalog was built comes back on its own: nothing else would ever ask it
 * again, since the runtime re-serves only when the surface stamp moves. Waits double from `baseMs`
 * up to `maxMs`; timers never keep the process alive.
 */
export class RelistScheduler {
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; attempt: number }>();
  private readonly attempts = new Map<string, number>();
  private stopped = false;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
    /** Lists the provider's tools; resolves true when that worked. */
    private readonly relist: (provider: string) => Promise<boolean>,
  ) {}

  /** Schedules the next attempt for `provider` unless one is already waiting. */
  schedule(provider: string): void {
    if (this.stopped || this.baseMs <= 0 || this.pending.has(provider)) return;
    const attempt = (this.attempts.get(provider) ?? 0) + 1;
    this.attempts.set(provider, attempt);
    const delay = Math.min(this.maxMs, this.baseMs * 2 ** (attempt - 1));
    const timer = setTimeout(() => {
      this.pending.delete(provider);
      void this.relist(provider).then(
        (ok) => (ok ? this.cancel(provider) : this.schedule(provider)),
        () => this.schedule(provider),
      );
    }, delay);
    timer.unref?.();
    this.pending.set(provider, { timer, attempt });
  }

  /** Forgets `provider`: it listed fine (or left the registry). */
  cancel(provider: string): void {
    const waiting = this.pending.get(provider);
    if (waiting) clearTimeout(waiting.timer);
    this.pending.delete(provider);
    this.attempts.delete(provider);
  }

  /** Stops every attempt for good. */
  stop(): void {
    this.stopped = true;
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}
