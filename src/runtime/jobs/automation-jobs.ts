import type { JobQueue } from '../../core/job-queue.js';
import type { JsonObject } from '../../core/json.js';
import type { AutomationRunner, AutomationRunOutcome } from '../automations/automation-runner.js';
import { JOB_KINDS } from './job-kinds.js';

/** How due automations become jobs. */
export interface AutomationJobsOptions {
  readonly runner: AutomationRunner;
  readonly queue: JobQueue;
  /** The longest a process waits between looks at what is due (default 30 s; at least 1 s). */
  readonly pollMs?: number;
  /** Told of each run this process made (tests, the worker's log line). */
  readonly onRun?: (outcome: AutomationRunOutcome) => void;
}

/**
 * Due automations as jobs (hosted mode): every process that looks (each `serve` and `worker`) sends a
 * job per due occurrence, keyed by the occurrence so one waits at a time, and the worker that takes it
 * runs it only if it wins the store's claim on that occurrence: one run, however many processes race.
 */
export class AutomationJobs {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly options: AutomationJobsOptions) {}

  /** Sends a job for each occurrence due now; returns how many were sent (not already waiting). */
  async sendDue(): Promise<number> {
    const { runner, queue } = this.options;
    const store = runner.options.runtime.store;
    let sent = 0;
    for (const automation of await store.listDueAutomations(runner.clock.now())) {
      const key = `${automation.id}@${automation.nextRunAt ?? ''}`;
      const data = { automationId: automation.id, scheduledFor: automation.nextRunAt ?? null };
      if ((await queue.send(JOB_KINDS.automation, data, { key })) !== undefined) sent++;
    }
    return sent;
  }

  /** Looks for due occurrences now and then (until `stop`), sending each as a job. */
  startSending(): void {
    const every = Math.max(1_000, this.options.pollMs ?? 30_000);
    const tick = async (): Promise<void> => {
      try {
        await this.sendDue();
      } catch (error) {
        const message = `could not send due automations: ${(error as Error).message}`;
        this.options.runner.options.runtime.logger?.log({ level: 'warn', scope: 'automations', message });
      }
      if (!this.stopped) this.timer = setTimeout(() => void tick(), every);
      this.timer?.unref();
    };
    void tick();
  }

  /** Works on automation jobs here, `concurrency` at once. */
  async work(concurrency: number): Promise<void> {
    await this.options.queue.work(JOB_KINDS.automation, { concurrency }, (data) => this.run(data));
  }

  /** Stops sending and waits for the runs under way here. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled(this.running);
  }

  private async run(data: JsonObject): Promise<void> {
    const { runner } = this.options;
    const id = typeof data.automationId === 'string' ? data.automationId : undefined;
    if (id === undefined) return;
    const automation = await runner.options.runtime.store.getAutomation(id);
    // Moved on already (run by another job or process), switched off, or deleted: nothing to do.
    if (!automation || automation.nextRunAt !== data.scheduledFor) return;
    const run = runner.runIfClaimed(automation);
    this.running.add(run);
    try {
      const outcome = await run;
      if (outcome) this.options.onRun?.(outcome);
    } finally {
      this.running.delete(run);
    }
  }
}
