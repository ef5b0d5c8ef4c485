import type { Migration } from '../migrate.js';

/**
 * Reserved: version 13 is the scoped-grants migration of issue 25, written on another branch. This
 * empty step only keeps the versions of this branch consecutive; the merge replaces it with that one.
 */
export const v13Reserved: Migration = {
  version: 13,
  name: 'reserved (scoped grants)',
  sql: '',
};
