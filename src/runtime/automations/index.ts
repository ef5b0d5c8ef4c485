export { AutomationDesk } from './automation-desk.js';
export {
  AutomationRunner,
  type AutomationRunnerOptions,
  type AutomationRunOutcome,
} from './automation-runner.js';
export { AutomationScheduler, type SchedulerOptions } from './automation-scheduler.js';
export {
  type AutomationConfig,
  type AutomationSettings,
  automationSettings,
  DEFAULT_BUDGET,
} from './automation-settings.js';
export { readCreateSpec, readPatchSpec, SPEC_FIELDS } from './automation-spec.js';
export { AutomationSpecError } from './automation-spec-error.js';
export { type Clock, systemClock } from './clock.js';
export type { AutomationMessage, ResultNotifier } from './result-notifier.js';
export { budgetedModel, RunBudget } from './run-budget.js';
export { checkTimeZone, cronOf, nextOccurrence } from './schedule.js';
