import type { Migration } from '../migrate.js';

/**
 * Stands in for migration 18 (the stored tool switches, on branch serve-store) until that branch is
 * merged here; this file goes when it is. It changes nothing.
 */
export const v18Reserved: Migration = { version: 18, name: 'reserved', sql: '' };
