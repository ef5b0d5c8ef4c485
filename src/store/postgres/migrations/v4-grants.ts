import type { Migration } from '../../migrate.js';

/** Standing grants by tool, for one session or (no session) for all. */
export const v4Grants: Migration = {
  version: 4,
  name: 'grants',
  sql: `
    CREATE TABLE grants (
      id TEXT PRIMARY KEY,
      n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      session_id TEXT REFERENCES sessions (id) ON DELETE CASCADE,
      tool_name TEXT NOT NULL,
      approval_id TEXT REFERENCES approvals (id) ON DELETE SET NULL,
      created_at BIGINT NOT NULL
    );
    CREATE UNIQUE INDEX grants_one_per_tool ON grants (coalesce(session_id, ''), tool_name);
  `,
};
