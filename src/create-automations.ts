import type { ToolseamConfig } from './config.js';
import type { Logger } from './core/logger.js';
import type { AutomationBook } from './core/session-store.js';
import { AutomationDesk } from './runtime/automations/automation-desk.js';
import { AutomationRunner } from './runtime/automations/automation-runner.js';
import { AutomationScheduler } from './runtime/automations/automation-scheduler.js';
import { automationSettings } from './runtime/automations/automation-settings.js';
import type { Clock } from './runtime/automations/clock.js';
import type { ResultNotifier } from './runtime/automations/result-notifier.js';
import type { Runtime } from './runtime/runtime.js';
import { deferredSubagentRun } from './runtime/subagents/deferred-subagent-run.js';
import { createNotifier } from './tools/notify/notifier.js';

/** What a host's automations are built with besides its runtime. */
export interface AutomationsOptions {
  /** The checked `toolseam.json` (its "automations" and "agents"). */
  readonly config?: ToolseamConfig | undefined;
  /** Where results go (default: the config's "notify" channels, through the outbox); without any, they are kept with the automation only. */
  readonly notifier?: ResultNotifier | undefined;
  /** Tests pass a clock they move by hand. */
  readonly clock?: Clock;
  /** The longest the loop sleeps between looks at the store (default 30 s). */
  readonly pollMs?: number;
  readonly logger?: Logger;
}

/**
 * The scheduler of `runtime`'s automations: `start()` in a long-lived process (`toolseam serve`),
 * `runDue()` once for a system scheduler (`toolseam run-due`), `stop()` before the runtime closes.
 * Each run is an unattended turn on a runtime of its own over the same model, tools and store.
 */
export function createAutomationScheduler(
  runtime: Runtime,
  options: AutomationsOptions = {},
): AutomationScheduler {
  const runner = new AutomationRunner({
    runtime: runtime.options,
    settings: automationSettings(options.config?.automations),
    // the config's channels through the outbox (the runtime's own deliverer retries what this cannot send)
    notifier:
      options.notifier ??
      (options.config?.notify
        ? createNotifier({
            config: options.config.notify,
            store: runtime.options.store,
            ...(options.logger ? { logger: options.logger } : {}),
          })
        : undefined),
    ...(options.clock ? { clock: options.clock } : {}),
    runtimeTools: (run) => [deferredSubagentRun(run)],
  });
  return new AutomationScheduler(runner, {
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/** `createAutomationScheduler(...)` started: what `toolseam serve` runs; `stop()` it before closing the runtime. */
export function startAutomations(runtime: Runtime, options: AutomationsOptions = {}): AutomationScheduler {
  const scheduler = createAutomationScheduler(runtime, options);
  scheduler.start();
  return scheduler;
}

/** The desk the automation tools and `toolseam automations` work through. */
export function automationDesk(
  store: AutomationBook,
  config: ToolseamConfig | undefined,
  channels?: () => readonly string[],
): AutomationDesk {
  return new AutomationDesk({
    store,
    settings: automationSettings(config?.automations),
    agents: Object.keys(config?.agents ?? {}),
    ...(channels ? { channels } : {}),
  });
}
