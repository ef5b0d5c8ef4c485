import type { Migration } from '../migrate.js';

/** When a turn's owner last said it was alive, so a turn whose process is gone can be told apart anywhere. */
export const v10OwnerHeartbeat: Migration = {
  version: 10,
  name: 'turn owner heartbeat',
  sql: `
    ALTER TABLE turns ADD COLUMN owner_seen_at INTEGER;
    UPDATE turns SET owner_seen_at = started_at WHERE owner IS NOT NULL;
  `,
};
