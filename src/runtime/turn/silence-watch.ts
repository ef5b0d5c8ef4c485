import type { RuntimeEvent } from '../../core/events.js';

/** How long a model may be silent before the person is told toolseam still waits (10 s). */
export const WAITING_NOTICE_MS = 10_000;

/**
 * Tells the host, while a model call has shown nothing yet, that toolseam is still waiting: a
 * `model-waiting` event after `firstMs` of silence, again at three and six times that, then every six
 * times that (10 s, 30 s, 60 s, 120 s, … by default). The first text or tool call ends it; a retry
 * notice (which says why nothing comes) starts the count again.
 */
export class SilenceWatch {
  private timer: NodeJS.Timeout | undefined;
  private since = 0;
  private told = 0;
  private stopped = false;

  constructor(
    private readonly emit: (event: RuntimeEvent) => void,
    private readonly firstMs: number = WAITING_NOTICE_MS,
  ) {
    this.restart();
  }

  /** Counts the silence from now (a retry notice was just shown). */
  restart(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.since = Date.now();
    this.told = 0;
    this.schedule();
  }

  /** The answer has started (or the call ended): no more notices. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    this.timer = setTimeout(() => this.tell(), Math.max(0, this.since + this.due() - Date.now()));
    // the model call itself keeps the process alive; a notice never should
    this.timer.unref();
  }

  /** How long after `since` the next notice is due. */
  private due(): number {
    return this.firstMs * (this.told === 0 ? 1 : this.told === 1 ? 3 : 6 * (this.told - 1));
  }

  private tell(): void {
    if (this.stopped) return;
    // A timer may fire a millisecond before the wall clock says it is due: a notice never claims less
    // silence than it is about.
    if (Date.now() - this.since < this.due()) {
      this.schedule();
      return;
    }
    this.emit({ type: 'model-waiting', waitedMs: Date.now() - this.since });
    this.told += 1;
    this.schedule();
  }
}
