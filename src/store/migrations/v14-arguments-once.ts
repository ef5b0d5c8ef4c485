import type { Migration } from '../migrate.js';

/**
 * Each call's arguments stored once. `tool_calls.raw_arguments` holds them; `arguments_as_raw = 1` says
 * the arguments as read are what that text reads as, so `tool_calls.arguments` stays NULL (it still holds
 * arguments that differ: lifted JSON text decoded, keys renamed back, left-out nulls filled in). From this
 * version on, an assistant message's `tool_calls` leave out the arguments of calls recorded in `tool_calls`,
 * and an approval's `arguments` is '' for "its call's". Rows written before keep their copies and read as
 * they always did.
 */
export const v14ArgumentsOnce: Migration = {
  version: 14,
  name: 'arguments stored once',
  sql: `
    ALTER TABLE tool_calls ADD COLUMN arguments_as_raw INTEGER NOT NULL DEFAULT 0;
  `,
};
