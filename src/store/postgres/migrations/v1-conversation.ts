import type { Migration } from '../../migrate.js';

/** Sessions, their used tools, turns and messages; `n` keeps the order rows were written in. */
export const v1Conversation: Migration = {
  version: 1,
  name: 'sessions, turns and messages',
  sql: `
    CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      title TEXT NOT NULL DEFAULT '',
      agent TEXT,
      provider TEXT,
      model TEXT,
      surface_stamp TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    );
    CREATE INDEX sessions_by_update ON sessions (updated_at, n);

    CREATE TABLE session_tools (
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      tool_name TEXT NOT NULL,
      n BIGINT GENERATED ALWAYS AS IDENTITY,
      first_used_at BIGINT NOT NULL,
      PRIMARY KEY (session_id, tool_name)
    );

    CREATE TABLE turns (
      id TEXT PRIMARY KEY,
      n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      status TEXT NOT NULL
        CHECK (status IN ('running', 'waiting_approval', 'done', 'failed', 'stopped', 'interrupted')),
      user_text TEXT NOT NULL,
      owner TEXT,
      error TEXT,
      started_at BIGINT NOT NULL,
      ended_at BIGINT
    );
    CREATE INDEX turns_by_session ON turns (session_id, started_at);
    CREATE INDEX turns_unfinished ON turns (status) WHERE status IN ('running', 'waiting_approval');

    CREATE TABLE messages (
      seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
      content TEXT NOT NULL,
      tool_calls TEXT,
      tool_call_id TEXT,
      wire_name TEXT,
      tool_name TEXT,
      is_error SMALLINT,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX messages_by_session ON messages (session_id, seq);
  `,
};
