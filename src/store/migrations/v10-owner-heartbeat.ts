import type { Migration } from '../migrate.js';

/** When a turn's owner last said it was alive, so a turn whose process is gone can be told apart anywhere. */
export const v10OwnerHeartbeat: Migration = {
  version: 10,
  name: 'turn owner heartbeat',
  // Existing turns get none: an older toolseam still running them does not beat, and must not look gone.
  sql: `
    ALTER TABLE turns ADD COLUMN owner_seen_at INTEGER;
  `,
};
