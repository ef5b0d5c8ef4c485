import type { DeleteSessionOptions } from '../core/session-inputs.js';
import { StoreConflictError } from '../core/store-errors.js';
import type { ApprovalsTable } from './approvals-table.js';
import type { AuditTable } from './audit-table.js';
import type { StoreContext } from './store-context.js';

/** A session and, through its batches' leaves, every session it ran as a subagent, however deep. */
export const FAMILY = `
  WITH RECURSIVE family (id) AS (
    SELECT id FROM sessions WHERE id = ?
    UNION
    SELECT l.child_session_id FROM family f
      JOIN batches b ON b.parent_session_id = f.id
      JOIN leaves l ON l.batch_id = b.id
    WHERE l.child_session_id IS NOT NULL
  )
  SELECT id FROM family`;

/**
 * Deleting a session with what is stored for it. The foreign keys cascade from the session to its
 * turns, messages, tool calls, approvals, grants and batches; memories, tasks and quarantines keep
 * their rows without it; the audit trail names sessions without a key, so it keeps what happened.
 */
export function sessionDeletion(ctx: StoreContext, approvals: ApprovalsTable, audit: AuditTable) {
  const { db } = ctx;
  const family = db.prepare(FAMILY).pluck();
  // Written as the partial index's condition, so SQLite reads only the session's open turns.
  const unfinished = db.prepare(
    `SELECT id, status FROM turns WHERE session_id = ? AND (status = 'running' OR status = 'waiting_approval')`,
  );
  const remove = db.prepare('DELETE FROM sessions WHERE id = ?');

  return (id: string, options: DeleteSessionOptions = {}): string[] =>
    ctx.write(() => {
      const ids = family.all(id) as string[];
      if (ids.length === 0) return [];
      const abandoned = new Set(options.abandonedTurns ?? []);
      const open = ids.flatMap((s) => unfinished.all(s) as { id: string; status: string }[]);
      const live = open.find((t) => !abandoned.has(t.id));
      if (live) throw new StoreConflictError('turn', live.id, live.status, 'deleted with its session');
      // Closed first, so the trail says what became of every question that was still open.
      for (const s of ids) {
        for (const a of approvals.list({ sessionId: s, status: 'pending' })) {
          approvals.close(a.id, 'cancelled', 'its session was deleted');
        }
      }
      for (const s of ids) remove.run(s);
      audit.add({
        kind: 'session.deleted',
        sessionId: id,
        detail: { sessions: ids, abandonedTurns: open.map((t) => t.id) },
      });
      return ids;
    });
}
