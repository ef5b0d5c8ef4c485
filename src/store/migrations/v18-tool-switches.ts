import type { Migration } from '../migrate.js';

/**
 * A person's on/off switch per tool (real name), with when and by whom it was last flipped. `seq` rises
 * with every flip across every connection, so a runtime reads only the switches flipped since its last
 * read (one index seek when none was) and applies them from its next turn.
 *
 * Deleting a session deletes its turns and tool calls, and SQLite then looks for each one's messages
 * and approvals by the foreign key: without an index on it, that is a read of the whole table per
 * turn or call deleted, across every session ever stored.
 */
export const v18ToolSwitches: Migration = {
  version: 18,
  name: 'tool switches, and session deletes through indexes',
  sql: `
    CREATE TABLE tool_switches (
      tool_name TEXT PRIMARY KEY,
      enabled INTEGER NOT NULL CHECK (enabled = 0 OR enabled = 1),
      seq INTEGER NOT NULL,
      changed_by TEXT,
      changed_at INTEGER NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX tool_switches_by_seq ON tool_switches (seq);
    CREATE INDEX messages_by_turn ON messages (turn_id);
    CREATE INDEX approvals_by_call ON approvals (turn_id, call_id);
  `,
};
