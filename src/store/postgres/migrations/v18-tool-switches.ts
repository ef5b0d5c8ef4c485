import type { Migration } from '../../migrate.js';

/** Each tool's on/off switch with a `seq` rising with every flip, and the indexes a cascading delete
 * looks through. */
export const v18ToolSwitches: Migration = {
  version: 18,
  name: 'tool switches, and session deletes through indexes',
  sql: `
    CREATE TABLE tool_switches (
      tool_name TEXT PRIMARY KEY,
      enabled SMALLINT NOT NULL CHECK (enabled IN (0, 1)),
      seq BIGINT NOT NULL,
      changed_by TEXT,
      changed_at BIGINT NOT NULL
    );
    CREATE UNIQUE INDEX tool_switches_by_seq ON tool_switches (seq);
    CREATE INDEX messages_by_turn ON messages (turn_id);
    CREATE INDEX approvals_by_call ON approvals (turn_id, call_id);
  `,
};
