import type { Migration } from '../../migrate.js';

/** Tasks kept for the person. */
export const v7Tasks: Migration = {
  version: 7,
  name: 'tasks',
  sql: `
    CREATE TABLE tasks (
      id TEXT PRIMARY KEY,
      n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      title TEXT NOT NULL,
      detail TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed', 'cancelled')),
      session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    );
    CREATE INDEX tasks_by_status ON tasks (status, created_at);
  `,
};
