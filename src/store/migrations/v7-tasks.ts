import type { Migration } from '../migrate.js';

/** Tasks kept for the person. */
export const v7Tasks: Migration = {
  version: 7,
  name: 'tasks',
  // Lists of allowed values are OR chains: SQLite evaluates `IN (…)` lists of three or more through a
  // temporary table built on every insert and update.
  sql: `
    CREATE TABLE tasks (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      detail TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL CHECK (status = 'pending' OR status = 'in_progress' OR status = 'completed' OR
        status = 'cancelled'),
      session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX tasks_by_status ON tasks (status, created_at);
  `,
};
