import type { Migration } from '../../migrate.js';

/** The audit trail: sessions and turns are named without foreign keys, so it outlives them. */
export const v5Audit: Migration = {
  version: 5,
  name: 'audit trail',
  sql: `
    CREATE TABLE audit (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      kind TEXT NOT NULL,
      session_id TEXT,
      turn_id TEXT,
      detail TEXT NOT NULL,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX audit_by_session ON audit (session_id, id);
    CREATE INDEX audit_by_turn ON audit (turn_id, id);
    CREATE INDEX audit_by_kind ON audit (kind, id);
  `,
};
