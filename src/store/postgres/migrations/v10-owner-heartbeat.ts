import type { Migration } from '../../migrate.js';

/** When a turn's owner last said it was alive. */
export const v10OwnerHeartbeat: Migration = {
  version: 10,
  name: 'turn owner heartbeat',
  sql: `
    ALTER TABLE turns ADD COLUMN owner_seen_at BIGINT;
  `,
};
