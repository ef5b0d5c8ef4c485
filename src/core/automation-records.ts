/** How an automation's run ended: as its turn did, `budget` when its budget ran out, `skipped` when it never started. */
export type AutomationRunStatus = 'done' | 'failed' | 'stopped' | 'limit' | 'budget' | 'skipped';

/** The most an automation's run may spend; absent fields take the config's default. */
export interface AutomationBudget {
  readonly modelRequests?: number;
  readonly tokens?: number;
}

/** How an automation's last run went. */
export interface AutomationLastRun {
  /** The occurrence it ran for (ISO). */
  readonly scheduledFor: string;
  readonly startedAt: string;
  /** Absent while it runs (or when its process died mid-run). */
  readonly finishedAt?: string;
  readonly status?: AutomationRunStatus;
  /** The result as it was handed to the notify channel. */
  readonly summary?: string;
  readonly sessionId?: string;
  /** How long after its occurrence it started, in ms. */
  readonly lateMs: number;
}

/** An automation as stored. */
export interface AutomationRecord {
  readonly id: string;
  readonly name: string;
  /** The schedule as the person wrote it (a cron expression or a plain form). */
  readonly schedule: string;
  /** The cron expression it was read as. */
  readonly cron: string;
  readonly prompt: string;
  readonly agent?: string;
  /** Globs over real tool names the run may use (every tool its agent may use when absent). */
  readonly tools?: readonly string[];
  /** The notify channel its result goes to (the default channel when absent). */
  readonly notify?: string;
  readonly budget: AutomationBudget;
  readonly enabled: boolean;
  /** The next occurrence (ISO); absent when the schedule has none left or the automation is off. */
  readonly nextRunAt?: string;
  readonly lastRun?: AutomationLastRun;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A new automation, its schedule already read and its first occurrence worked out. */
export interface NewAutomation {
  readonly name: string;
  readonly schedule: string;
  readonly cron: string;
  readonly prompt: string;
  readonly agent?: string | undefined;
  readonly tools?: readonly string[] | undefined;
  readonly notify?: string | undefined;
  readonly budget?: AutomationBudget | undefined;
  readonly enabled?: boolean | undefined;
  /** Epoch ms, or null for none. */
  readonly nextRunAt: number | null;
}

/** A change to an automation; `null` clears an optional field. */
export interface AutomationPatch {
  readonly name?: string;
  readonly schedule?: string;
  readonly cron?: string;
  readonly prompt?: string;
  readonly agent?: string | null;
  readonly tools?: readonly string[] | null;
  readonly notify?: string | null;
  readonly budget?: AutomationBudget;
  readonly enabled?: boolean;
  /** Epoch ms, or null for none. */
  readonly nextRunAt?: number | null;
}

/** One process taking one occurrence: it holds only while `next_run_at` still equals `scheduledFor`. */
export interface AutomationClaim {
  readonly id: string;
  /** The occurrence claimed, epoch ms, as read from `nextRunAt`. */
  readonly scheduledFor: number;
  /** The occurrence after it (epoch ms; null for none). */
  readonly nextRunAt: number | null;
  readonly owner: string;
  /** When the claim is made, epoch ms. */
  readonly at: number;
}

/** How a claimed run ended. */
export interface AutomationRunEnd {
  readonly status: AutomationRunStatus;
  readonly summary: string;
  readonly sessionId?: string | undefined;
}
