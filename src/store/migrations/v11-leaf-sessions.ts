import type { Migration } from '../migrate.js';

/** Finding a leaf by its child session without reading every batch ever run. */
export const v11LeafSessions: Migration = {
  version: 11,
  name: 'leaves by child session',
  sql: `
    CREATE INDEX leaves_by_child_session ON leaves (child_session_id) WHERE child_session_id IS NOT NULL;
  `,
};
