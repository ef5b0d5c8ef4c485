import type { Migration } from '../migrate.js';

/** Approvals, each bound to one tool call; at most one pending per call. */
export const v3Approvals: Migration = {
  version: 3,
  name: 'approvals',
  // Lists of allowed values are OR chains: SQLite evaluates `IN (…)` lists of three or more through a
  // temporary table built on every insert and update.
  sql: `
    CREATE TABLE approvals (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      call_id TEXT NOT NULL,
      tool_name TEXT NOT NULL,
      arguments TEXT NOT NULL,
      digest TEXT NOT NULL,
      risk TEXT NOT NULL CHECK (risk = 'safe' OR risk = 'caution' OR risk = 'destructive'),
      meaning TEXT NOT NULL,
      leaf_title TEXT,
      status TEXT NOT NULL CHECK (status = 'pending' OR status = 'approved' OR status = 'denied' OR
        status = 'expired' OR status = 'cancelled'),
      scope TEXT CHECK (scope = 'once' OR scope = 'session' OR scope = 'forever'),
      reason TEXT,
      answered_by TEXT,
      created_at INTEGER NOT NULL,
      answered_at INTEGER,
      expires_at INTEGER,
      FOREIGN KEY (turn_id, call_id) REFERENCES tool_calls (turn_id, call_id) ON DELETE CASCADE
    ) STRICT;
    CREATE UNIQUE INDEX approvals_one_pending_per_call ON approvals (turn_id, call_id)
      WHERE status = 'pending';
    CREATE INDEX approvals_by_session ON approvals (session_id, created_at);
    CREATE INDEX approvals_pending ON approvals (created_at) WHERE status = 'pending';
  `,
};
