import type { Migration } from '../migrate.js';

/**
 * Automations: a prompt run unattended on a schedule. `next_run_at` (epoch ms, NULL when none is
 * coming) is what a run is claimed by: the claim moves it on in one statement only where it still holds
 * the value the claimer read, so two processes never take the same occurrence. The last run's outcome
 * is kept on the row for `toolseam automations`; the run itself is a session.
 */
export const v21Automations: Migration = {
  version: 21,
  name: 'automations',
  sql: `
    CREATE TABLE automations (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      schedule TEXT NOT NULL,
      cron TEXT NOT NULL,
      prompt TEXT NOT NULL,
      agent TEXT,
      tools TEXT,
      notify TEXT,
      max_model_requests INTEGER,
      max_tokens INTEGER,
      enabled INTEGER NOT NULL CHECK (enabled = 0 OR enabled = 1),
      next_run_at INTEGER,
      claimed_by TEXT,
      claimed_at INTEGER,
      last_scheduled_at INTEGER,
      last_started_at INTEGER,
      last_finished_at INTEGER,
      last_status TEXT,
      last_summary TEXT,
      last_session_id TEXT,
      last_late_ms INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX automations_due ON automations (next_run_at) WHERE enabled = 1;
  `,
};
