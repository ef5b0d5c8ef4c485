import type { Migration } from '../../migrate.js';

/** Subagent batches and their leaves. */
export const v8Batches: Migration = {
  version: 8,
  name: 'subagent batches',
  sql: `
    CREATE TABLE batches (
      id TEXT PRIMARY KEY,
      n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      parent_session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT,
      call_id TEXT,
      title TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
      created_at BIGINT NOT NULL,
      ended_at BIGINT
    );
    CREATE INDEX batches_by_parent ON batches (parent_session_id, created_at);
    CREATE INDEX batches_running ON batches (created_at) WHERE status = 'running';

    CREATE TABLE leaves (
      id TEXT PRIMARY KEY,
      batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      title TEXT NOT NULL,
      contract TEXT NOT NULL,
      agent TEXT,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'timed_out')),
      output TEXT,
      errors TEXT NOT NULL DEFAULT '[]',
      child_session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
      started_at BIGINT,
      ended_at BIGINT,
      UNIQUE (batch_id, idx)
    );
  `,
};
