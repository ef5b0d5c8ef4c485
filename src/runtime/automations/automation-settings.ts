import type { AutomationBudget } from '../../core/automation-records.js';
import { AutomationSpecError } from './automation-spec-error.js';
import { checkTimeZone } from './schedule.js';

/** The config's "automations" section, as written. */
export interface AutomationConfig {
  /** IANA time zone schedules are read in (default: this machine's). */
  readonly timeZone?: string;
  /** What one run may spend unless the automation sets less. */
  readonly budget?: AutomationBudget;
  /** How late a run may start before its result says it ran late, in minutes (default 2). */
  readonly lateAfterMinutes?: number;
}

/** The settings every run and every schedule uses, defaults applied. */
export interface AutomationSettings {
  readonly timeZone: string;
  readonly budget: Required<AutomationBudget>;
  readonly lateAfterMs: number;
}

/** A run's budget unless the config says otherwise. */
export const DEFAULT_BUDGET: Required<AutomationBudget> = { modelRequests: 12, tokens: 200_000 };

const KEYS = ['timeZone', 'budget', 'lateAfterMinutes'];

function wholeAtLeastOne(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new AutomationSpecError(
      field,
      `must be a whole number of at least 1, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** A budget object's fields checked, each error naming `${prefix}.field`. */
export function readBudget(value: unknown, prefix: string): AutomationBudget {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AutomationSpecError(prefix, 'must be an object such as {"modelRequests": 8, "tokens": 50000}.');
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'modelRequests' && key !== 'tokens') {
      throw new AutomationSpecError(
        `${prefix}.${key}`,
        'is not a budget field; a budget has modelRequests and tokens.',
      );
    }
  }
  const modelRequests = wholeAtLeastOne(record.modelRequests, `${prefix}.modelRequests`);
  const tokens = wholeAtLeastOne(record.tokens, `${prefix}.tokens`);
  return { ...(modelRequests ? { modelRequests } : {}), ...(tokens ? { tokens } : {}) };
}

/** The config's section checked and completed; throws AutomationSpecError naming `automations.<field>`. */
export function automationSettings(config: unknown = {}): AutomationSettings {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new AutomationSpecError('automations', 'must be an object.');
  }
  const c = config as Record<string, unknown>;
  for (const key of Object.keys(c)) {
    if (!KEYS.includes(key))
      throw new AutomationSpecError(
        `automations.${key}`,
        `is not a setting; the settings are ${KEYS.join(', ')}.`,
      );
  }
  const timeZone =
    c.timeZone === undefined ? Intl.DateTimeFormat().resolvedOptions().timeZone : (c.timeZone as unknown);
  if (typeof timeZone !== 'string')
    throw new AutomationSpecError('automations.timeZone', 'must be a string.');
  checkTimeZone(timeZone);
  const late = c.lateAfterMinutes ?? 2;
  if (typeof late !== 'number' || !Number.isFinite(late) || late < 0) {
    throw new AutomationSpecError('automations.lateAfterMinutes', 'must be a number of minutes, 0 or more.');
  }
  return {
    timeZone,
    budget: { ...DEFAULT_BUDGET, ...readBudget(c.budget, 'automations.budget') },
    lateAfterMs: late * 60_000,
  };
}
