import type { Migration } from '../../migrate.js';

/** The agent and task mode a turn runs under. */
export const v9TurnGates: Migration = {
  version: 9,
  name: 'turn agent and mode',
  sql: `
    ALTER TABLE turns ADD COLUMN agent TEXT;
    ALTER TABLE turns ADD COLUMN mode TEXT;
  `,
};
