import type { Migration } from '../../migrate.js';

/** A leaf found by its child session through an index. */
export const v11LeafSessions: Migration = {
  version: 11,
  name: 'leaves by child session',
  sql: `
    CREATE INDEX leaves_by_child_session ON leaves (child_session_id) WHERE child_session_id IS NOT NULL;
  `,
};
