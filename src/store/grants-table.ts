import type { NewGrant } from '../core/session-inputs.js';
import type { GrantRecord } from '../core/session-records.js';
import { StoreNotFoundError } from '../core/store-errors.js';
import { iso, opt, orNull, requireText } from './rows.js';
import type { SessionsTable } from './sessions-table.js';
import type { StoreContext } from './store-context.js';

interface GrantRow {
  id: string;
  session_id: string | null;
  tool_name: string;
  approval_id: string | null;
  created_at: number;
}

function toRecord(row: GrantRow): GrantRecord {
  return {
    id: row.id,
    sessionId: opt(row.session_id),
    tool: row.tool_name,
    approvalId: opt(row.approval_id),
    createdAt: iso(row.created_at),
  };
}

/** The grants table: standing permissions by tool name, per session or everywhere. */
export function grantsTable(ctx: StoreContext, sessions: SessionsTable) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO grants (id, session_id, tool_name, approval_id, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const find = db.prepare(`SELECT * FROM grants WHERE ifnull(session_id, '') = ? AND tool_name = ?`);
  const list = db.prepare(`SELECT * FROM grants WHERE session_id IS NULL OR session_id = ? ORDER BY rowid`);
  const has = db
    .prepare(`SELECT EXISTS (SELECT 1 FROM grants WHERE tool_name = ? AND ifnull(session_id, '') IN ('', ?))`)
    .pluck();
  const remove = db.prepare('DELETE FROM grants WHERE id = ?');
  const approvalExists = db.prepare('SELECT 1 FROM approvals WHERE id = ?').pluck();

  return {
    add(input: NewGrant) {
      const tool = requireText(input.tool, 'The tool of a grant');
      return ctx.write((): GrantRecord => {
        if (input.sessionId !== undefined) sessions.mustExist(input.sessionId);
        if (input.approvalId !== undefined && approvalExists.get(input.approvalId) === undefined)
          throw new StoreNotFoundError('approval', input.approvalId);
        insert.run(ctx.newId('g'), orNull(input.sessionId), tool, orNull(input.approvalId), ctx.now());
        return toRecord(find.get(input.sessionId ?? '', tool) as GrantRow);
      });
    },
    list(filter: { readonly sessionId?: string | undefined } = {}): GrantRecord[] {
      return (list.all(filter.sessionId ?? null) as GrantRow[]).map(toRecord);
    },
    has(sessionId: string, tool: string): boolean {
      return has.get(tool, sessionId) === 1;
    },
    revoke(id: string): boolean {
      return remove.run(id).changes === 1;
    },
  };
}

/** The grants table module's interface. */
export type GrantsTable = ReturnType<typeof grantsTable>;
