import type { Migration } from '../migrate.js';

/**
 * Fewer pages written per turn. The unfinished turns and loose calls each had two partial indexes
 * holding the same rows, one keyed by status and one by session; one keyed by both serves every query
 * the two served, and each start, claim and end of a turn or call now updates one index instead of
 * two. Model usage drops AUTOINCREMENT: its ids only order a session's rows, which a plain rowid does
 * as well, and every insert no longer rewrites `sqlite_sequence`.
 */
export const v25FewerIndexWrites: Migration = {
  version: 25,
  name: 'fewer index writes per turn',
  // The conditions are written as the queries write them (statusIn), so SQLite sees the index applies.
  sql: `
    DROP INDEX turns_unfinished;
    DROP INDEX turns_unfinished_by_session;
    CREATE INDEX turns_unfinished ON turns (status, session_id)
      WHERE (status = 'running' OR status = 'waiting_approval');
    DROP INDEX tool_calls_unfinished;
    DROP INDEX tool_calls_loose_by_session;
    CREATE INDEX tool_calls_unfinished ON tool_calls (status, session_id)
      WHERE (status = 'pending' OR status = 'approved' OR status = 'running');
    CREATE TABLE model_usage_v25 (
      id INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      request_chars INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    INSERT INTO model_usage_v25 (id, session_id, turn_id, input_tokens, output_tokens, request_chars, created_at)
      SELECT id, session_id, turn_id, input_tokens, output_tokens, request_chars, created_at FROM model_usage;
    DROP TABLE model_usage;
    ALTER TABLE model_usage_v25 RENAME TO model_usage;
    CREATE INDEX model_usage_by_session ON model_usage (session_id, id);
  `,
};
