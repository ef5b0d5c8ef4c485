import type { Logger } from '../../core/logger.js';
import { silentLogger } from '../../core/logger.js';
import type { AutomationRunner, AutomationRunOutcome } from './automation-runner.js';

/** How the scheduler loop is paced. */
export interface SchedulerOptions {
  /** The longest the loop sleeps before looking at the store again (default 30 s): automations made by another process are seen within it. */
  readonly pollMs?: number;
  readonly logger?: Logger;
}

/**
 * Runs automations when they fall due: `runDue()` once (what `toolseam run-due` does), or `start()` a
 * loop that sleeps on the runner's clock until the next occurrence (what `toolseam serve` does).
 */
export class AutomationScheduler {
  private readonly pollMs: number;
  private readonly logger: Logger;
  private controller: AbortController | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    readonly runner: AutomationRunner,
    options: SchedulerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 30_000;
    this.logger = options.logger ?? silentLogger;
  }

  /** Claims and runs every occurrence due now, one after another; returns those this process ran. */
  async runDue(signal?: AbortSignal): Promise<AutomationRunOutcome[]> {
    const store = this.runner.options.runtime.store;
    const ran: AutomationRunOutcome[] = [];
    for (const automation of await store.listDueAutomations(this.runner.clock.now())) {
      if (signal?.aborted) break;
      try {
        const outcome = await this.runner.runIfClaimed(automation, signal);
        if (outcome) ran.push(outcome);
      } catch (error) {
        // one automation's trouble (a store write refused) must not keep the others from running
        this.logger.log({
          level: 'warn',
          scope: 'automations',
          message: `automation ${automation.name}: ${(error as Error).message}`,
        });
      }
    }
    return ran;
  }

  /** Starts the loop (again a no-op while it runs). */
  start(): void {
    if (this.loop) return;
    const controller = new AbortController();
    this.controller = controller;
    this.loop = this.run(controller.signal);
  }

  /** Stops the loop; a run under way is stopped too, and its result recorded, before this resolves. */
  async stop(): Promise<void> {
    this.controller?.abort();
    await this.loop;
    this.loop = undefined;
    this.controller = undefined;
  }

  private async run(signal: AbortSignal): Promise<void> {
    const clock = this.runner.clock;
    while (!signal.aborted) {
      await this.runDue(signal).catch((error: unknown) => {
        this.logger.log({
          level: 'warn',
          scope: 'automations',
          message: `could not read due automations: ${String(error)}`,
        });
      });
      if (signal.aborted) break;
      await clock.sleep(await this.untilNext(), signal);
    }
  }

  /** How long to sleep: until the soonest next run, at most `pollMs`. */
  private async untilNext(): Promise<number> {
    const now = this.runner.clock.now();
    let wait = this.pollMs;
    try {
      for (const automation of await this.runner.options.runtime.store.listAutomations()) {
        if (!automation.enabled || automation.nextRunAt === undefined) continue;
        wait = Math.min(wait, Math.max(0, Date.parse(automation.nextRunAt) - now));
      }
    } catch {
      // the store is busy: look again after the usual wait
    }
    return wait;
  }
}
