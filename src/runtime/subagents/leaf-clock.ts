/**
 * A leaf's time limit, which stands still while a person is asked about one of the leaf's calls: the
 * limit bounds the leaf's own work, and the wait for a person is bounded by the approval timeout.
 */
export class LeafClock {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private leftMs: number;
  private startedAt = 0;
  private readonly asking = new Set<string>();
  private stopped = false;

  constructor(
    limitMs: number,
    private readonly onTimeout: () => void,
  ) {
    this.leftMs = limitMs;
    this.run();
  }

  /** Approval `approvalId` of the leaf waits for a person: the clock stands still until it is answered. */
  pause(approvalId: string): void {
    if (this.stopped) return;
    this.asking.add(approvalId);
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.leftMs = Math.max(0, this.leftMs - (Date.now() - this.startedAt));
  }

  /** Approval `approvalId` was answered (or expired, or was cancelled): the clock runs on once none waits. */
  resume(approvalId: string): void {
    if (!this.asking.delete(approvalId) || this.asking.size > 0 || this.stopped) return;
    this.run();
  }

  /** The leaf ended: the clock never fires. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    this.startedAt = Date.now();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.stopped = true;
      this.onTimeout();
    }, this.leftMs);
  }
}
