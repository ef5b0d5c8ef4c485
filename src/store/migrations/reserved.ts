import type { Migration } from '../migrate.js';

/**
 * A schema version another change being built alongside claims (13: scoped grants, 14: tool-call
 * limits), held here so that this branch's own steps keep their numbers. It changes nothing; at merge
 * the real step takes its place. Never ship a release with one of these in `MIGRATIONS`: a database it
 * migrated would skip the real step.
 */
export function reservedStep(version: number, claimedBy: string): Migration {
  return { version, name: `reserved for ${claimedBy}`, sql: '' };
}
