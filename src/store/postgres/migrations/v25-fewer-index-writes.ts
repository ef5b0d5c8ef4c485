import type { Migration } from '../../migrate.js';

/**
 * One partial index for the unfinished turns and one for the loose calls, keyed by status and session,
 * in place of two each holding the same rows (SQLite's step 25; its model-usage change has nothing to
 * do here: an identity column rewrites no other table).
 */
export const v25FewerIndexWrites: Migration = {
  version: 25,
  name: 'fewer index writes per turn',
  sql: `
    DROP INDEX turns_unfinished;
    DROP INDEX turns_unfinished_by_session;
    CREATE INDEX turns_unfinished ON turns (status, session_id) WHERE status IN ('running', 'waiting_approval');
    DROP INDEX tool_calls_unfinished;
    DROP INDEX tool_calls_loose_by_session;
    CREATE INDEX tool_calls_unfinished ON tool_calls (status, session_id)
      WHERE status IN ('pending', 'approved', 'running');
  `,
};
