import type { GrantRecord } from '../core/session-records.js';
import { oneLineOf } from './event-printer.js';
import { visible } from './visible-text.js';

/** Where a grant holds, for a person. */
function whereItHolds(grant: GrantRecord): string {
  return grant.sessionId === undefined ? 'every session' : `session ${visible(grant.sessionId)}`;
}

/**
 * The rows of a list of standing permissions: id, tool, what it covers and where, when given; a withdrawn
 * one says when, by whom and why. "none" for an empty list.
 */
export function grantRows(grants: readonly GrantRecord[]): string[] {
  if (grants.length === 0) return ['  none'];
  return grants.flatMap((g) => {
    // A folder's summary names it as the chat's workspace showed it; the listing may run anywhere.
    const covers =
      g.scope === undefined
        ? `every ${visible(g.tool)} call (an unscoped grant of an earlier version)`
        : g.scope.kind === 'folder'
          ? `${g.scope.summary} [${g.scope.folder}]`
          : g.scope.summary;
    const rows = [
      `  ${visible(g.id)}  ${visible(g.tool)}  ${whereItHolds(g)}, given ${g.createdAt}`,
      `      covers: ${oneLineOf(covers, 300)}`,
    ];
    if (g.revokedAt !== undefined) {
      const by = g.revokedBy === 'upgrade' ? 'by the upgrade' : 'by the person';
      const why = g.revokedReason === undefined ? '' : `: ${oneLineOf(g.revokedReason, 300)}`;
      rows.push(`      withdrawn ${g.revokedAt} ${by}${why}`);
    }
    return rows;
  });
}
