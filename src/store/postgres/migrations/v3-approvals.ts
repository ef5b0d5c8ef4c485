import type { Migration } from '../../migrate.js';

/** Approvals, each about one tool call; at most one pending per call. */
export const v3Approvals: Migration = {
  version: 3,
  name: 'approvals',
  sql: `
    CREATE TABLE approvals (
      id TEXT PRIMARY KEY,
      n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      call_id TEXT NOT NULL,
      tool_name TEXT NOT NULL,
      arguments TEXT NOT NULL,
      digest TEXT NOT NULL,
      risk TEXT NOT NULL CHECK (risk IN ('safe', 'caution', 'destructive')),
      meaning TEXT NOT NULL,
      leaf_title TEXT,
      status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'cancelled')),
      scope TEXT CHECK (scope IN ('once', 'session', 'forever')),
      reason TEXT,
      answered_by TEXT,
      created_at BIGINT NOT NULL,
      answered_at BIGINT,
      expires_at BIGINT,
      FOREIGN KEY (turn_id, call_id) REFERENCES tool_calls (turn_id, call_id) ON DELETE CASCADE
    );
    CREATE UNIQUE INDEX approvals_one_pending_per_call ON approvals (turn_id, call_id) WHERE status = 'pending';
    CREATE INDEX approvals_by_session ON approvals (session_id, created_at);
    CREATE INDEX approvals_pending ON approvals (created_at) WHERE status = 'pending';
  `,
};
