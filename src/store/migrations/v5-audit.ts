import type { Migration } from '../migrate.js';

/** The audit trail; it names sessions and turns without foreign keys so it outlives them. */
export const v5Audit: Migration = {
  version: 5,
  name: 'audit trail',
  sql: `
    CREATE TABLE audit (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      session_id TEXT,
      turn_id TEXT,
      detail TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX audit_by_session ON audit (session_id, id);
    CREATE INDEX audit_by_turn ON audit (turn_id, id);
    CREATE INDEX audit_by_kind ON audit (kind, id);
  `,
};
