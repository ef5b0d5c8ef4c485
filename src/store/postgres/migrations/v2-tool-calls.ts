import type { Migration } from '../../migrate.js';

/** Tool calls, keyed by turn and call id, with how far each got. */
export const v2ToolCalls: Migration = {
  version: 2,
  name: 'tool calls',
  sql: `
    CREATE TABLE tool_calls (
      turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
      call_id TEXT NOT NULL,
      n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      tool_name TEXT NOT NULL,
      wire_name TEXT NOT NULL,
      raw_arguments TEXT NOT NULL,
      arguments TEXT,
      digest TEXT NOT NULL,
      status TEXT NOT NULL
        CHECK (status IN ('pending', 'approved', 'running', 'done', 'refused', 'failed')),
      claimed_by TEXT,
      result TEXT,
      is_error SMALLINT,
      not_run TEXT,
      refused_by TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (turn_id, call_id)
    );
    CREATE INDEX tool_calls_by_session ON tool_calls (session_id, created_at);
    CREATE INDEX tool_calls_unfinished ON tool_calls (status) WHERE status IN ('pending', 'approved', 'running');
  `,
};
