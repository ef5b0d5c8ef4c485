import type { Migration } from '../migrate.js';

/** Standing grants by tool name, per session or (no session) everywhere. */
export const v4Grants: Migration = {
  version: 4,
  name: 'grants',
  sql: `
    CREATE TABLE grants (
      id TEXT PRIMARY KEY,
      session_id TEXT REFERENCES sessions (id) ON DELETE CASCADE,
      tool_name TEXT NOT NULL,
      approval_id TEXT REFERENCES approvals (id) ON DELETE SET NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX grants_one_per_tool ON grants (ifnull(session_id, ''), tool_name);
  `,
};
