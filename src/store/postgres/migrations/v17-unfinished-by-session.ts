import type { Migration } from '../../migrate.js';

/** A session's open turns and loose calls found through indexes of their own. */
export const v17UnfinishedBySession: Migration = {
  version: 17,
  name: 'unfinished turns and loose calls by session',
  sql: `
    CREATE INDEX turns_unfinished_by_session ON turns (session_id) WHERE status IN ('running', 'waiting_approval');
    CREATE INDEX tool_calls_loose_by_session ON tool_calls (session_id)
      WHERE status IN ('pending', 'approved', 'running');
  `,
};
