import type { Migration } from '../../migrate.js';

/** Compactions, the token counts of every answer, and tool results kept whole. */
export const v22LongSessions: Migration = {
  version: 22,
  name: 'long sessions',
  sql: `
    CREATE TABLE compactions (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      through_seq BIGINT NOT NULL,
      summary TEXT NOT NULL,
      messages_covered BIGINT NOT NULL,
      tokens_before BIGINT NOT NULL,
      tokens_after BIGINT NOT NULL,
      reason TEXT NOT NULL,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX compactions_by_session ON compactions (session_id, id);
    CREATE TABLE model_usage (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      input_tokens BIGINT NOT NULL,
      output_tokens BIGINT NOT NULL,
      request_chars BIGINT NOT NULL,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX model_usage_by_session ON model_usage (session_id, id);
    CREATE TABLE full_results (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      call_id TEXT NOT NULL,
      tool TEXT NOT NULL,
      content TEXT NOT NULL,
      created_at BIGINT NOT NULL
    );
  `,
};
