import type { Migration } from '../../migrate.js';

/**
 * A stand-in for step 23, which another branch of issue 34 adds: versions run one after another, so
 * step 24 needs a 23 before it. When the branches meet, the real step 23 replaces this file.
 */
export const v23Reserved: Migration = {
  version: 23,
  name: 'reserved (replaced by the real step 23 on merge)',
  sql: '',
};
