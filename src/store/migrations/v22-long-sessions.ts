import type { Migration } from '../migrate.js';

/**
 * Long sessions: each compaction of a session's conversation (the messages stay; later requests carry
 * the summary in place of those up to `through_seq`), and the provider's token counts of every answer, and
 * each tool result too long for a request, kept whole for `tool_result_read`.
 */
export const v22LongSessions: Migration = {
  version: 22,
  name: 'long sessions',
  sql: `
    CREATE TABLE compactions (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      through_seq INTEGER NOT NULL,
      summary TEXT NOT NULL,
      messages_covered INTEGER NOT NULL,
      tokens_before INTEGER NOT NULL,
      tokens_after INTEGER NOT NULL,
      reason TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX compactions_by_session ON compactions (session_id, id);
    CREATE TABLE model_usage (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      request_chars INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX model_usage_by_session ON model_usage (session_id, id);
    CREATE TABLE full_results (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      call_id TEXT NOT NULL,
      tool TEXT NOT NULL,
      content TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
  `,
};
