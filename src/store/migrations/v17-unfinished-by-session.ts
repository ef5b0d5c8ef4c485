import type { Migration } from '../migrate.js';

/**
 * The unfinished turns and loose calls of one session found through indexes of their own. Each new turn
 * asks for both; through the session indexes SQLite read every turn and call the session ever had to
 * find the few still open, a cost that grew with every turn of a long session.
 */
export const v17UnfinishedBySession: Migration = {
  version: 17,
  name: 'unfinished turns and loose calls by session',
  // The conditions are written as the queries write them (statusIn), so SQLite sees the index applies.
  sql: `
    CREATE INDEX turns_unfinished_by_session ON turns (session_id)
      WHERE (status = 'running' OR status = 'waiting_approval');
    CREATE INDEX tool_calls_loose_by_session ON tool_calls (session_id)
      WHERE (status = 'pending' OR status = 'approved' OR status = 'running');
  `,
};
