import type { Migration } from '../../migrate.js';

/** A call's arguments kept once, as its raw text, when that is what they read as. */
export const v14ArgumentsOnce: Migration = {
  version: 14,
  name: 'arguments stored once',
  sql: `
    ALTER TABLE tool_calls ADD COLUMN arguments_as_raw SMALLINT NOT NULL DEFAULT 0;
  `,
};
