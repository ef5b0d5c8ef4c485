import type { Migration } from '../migrate.js';

/** Tool calls, keyed by turn and call id, with their run status. */
export const v2ToolCalls: Migration = {
  version: 2,
  name: 'tool calls',
  // Lists of allowed values are OR chains: SQLite evaluates `IN (…)` lists of three or more through a
  // temporary table built on every insert and update.
  sql: `
    CREATE TABLE tool_calls (
      turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
      call_id TEXT NOT NULL,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      tool_name TEXT NOT NULL,
      wire_name TEXT NOT NULL,
      raw_arguments TEXT NOT NULL,
      arguments TEXT,
      digest TEXT NOT NULL,
      status TEXT NOT NULL
        CHECK (status = 'pending' OR status = 'approved' OR status = 'running' OR status = 'done' OR
          status = 'refused' OR status = 'failed'),
      claimed_by TEXT,
      result TEXT,
      is_error INTEGER,
      not_run TEXT,
      refused_by TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (turn_id, call_id)
    ) STRICT;
    CREATE INDEX tool_calls_by_session ON tool_calls (session_id, created_at);
    CREATE INDEX tool_calls_unfinished ON tool_calls (status)
      WHERE (status = 'pending' OR status = 'approved' OR status = 'running');
  `,
};
