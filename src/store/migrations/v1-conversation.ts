import type { Migration } from '../migrate.js';

/** Sessions, their sticky used tools, turns and messages. */
export const v1Conversation: Migration = {
  version: 1,
  name: 'sessions, turns and messages',
  // Lists of allowed values are OR chains: SQLite evaluates `IN (…)` lists of three or more through a
  // temporary table built on every insert and update.
  sql: `
    CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL DEFAULT '',
      agent TEXT,
      provider TEXT,
      model TEXT,
      surface_stamp TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX sessions_by_update ON sessions (updated_at);

    CREATE TABLE session_tools (
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      tool_name TEXT NOT NULL,
      first_used_at INTEGER NOT NULL,
      PRIMARY KEY (session_id, tool_name)
    ) STRICT;

    CREATE TABLE turns (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      status TEXT NOT NULL
        CHECK (status = 'running' OR status = 'waiting_approval' OR status = 'done' OR status = 'failed' OR
          status = 'stopped' OR status = 'interrupted'),
      user_text TEXT NOT NULL,
      owner TEXT,
      error TEXT,
      started_at INTEGER NOT NULL,
      ended_at INTEGER
    ) STRICT;
    CREATE INDEX turns_by_session ON turns (session_id, started_at);
    CREATE INDEX turns_unfinished ON turns (status) WHERE (status = 'running' OR status = 'waiting_approval');

    CREATE TABLE messages (
      seq INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
      role TEXT NOT NULL CHECK (role = 'user' OR role = 'assistant' OR role = 'tool'),
      content TEXT NOT NULL,
      tool_calls TEXT,
      tool_call_id TEXT,
      wire_name TEXT,
      tool_name TEXT,
      is_error INTEGER,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX messages_by_session ON messages (session_id, seq);
  `,
};
