import type { AlwaysLines, Approval } from './api-types.js';

/**
 * The sentences a person reads before answering "always", for this session and for every session, or
 * undefined when the approval cannot be answered "always" (one an earlier toolseam stored). The API's
 * approvals bring them; a stream's approval-request brings only the scope, worded here the same way.
 */
export function alwaysLines(approval: Approval): Omit<AlwaysLines, 'scope'> | undefined {
  const always = approval.always;
  if (!always) return undefined;
  if ('scope' in always) return { session: always.session, forever: always.forever };
  const why = always.narrowed ? ` (${always.narrowed})` : '';
  return {
    session: `always: ${always.summary} in this session without asking${why}`,
    forever: `always (every session): ${always.summary} without asking${why}`,
  };
}
