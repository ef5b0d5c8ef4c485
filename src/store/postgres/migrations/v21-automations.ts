import type { Migration } from '../../migrate.js';

/** Automations: a prompt on a schedule, each occurrence claimed by moving `next_run_at` on. */
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
      max_model_requests BIGINT,
      max_tokens BIGINT,
      enabled SMALLINT NOT NULL CHECK (enabled IN (0, 1)),
      next_run_at BIGINT,
      claimed_by TEXT,
      claimed_at BIGINT,
      last_scheduled_at BIGINT,
      last_started_at BIGINT,
      last_finished_at BIGINT,
      last_status TEXT,
      last_summary TEXT,
      last_session_id TEXT,
      last_late_ms BIGINT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    );
    CREATE INDEX automations_due ON automations (next_run_at) WHERE enabled = 1;
  `,
};
