import type { Migration } from '../../migrate.js';

/** The model a turn runs on, so a resumed turn goes on with it. */
export const v12TurnModel: Migration = {
  version: 12,
  name: 'turn model',
  sql: `
    ALTER TABLE turns ADD COLUMN provider TEXT;
    ALTER TABLE turns ADD COLUMN model TEXT;
    ALTER TABLE turns ADD COLUMN base_url TEXT;
  `,
};
