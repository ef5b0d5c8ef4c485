import { InputError } from '../core/errors.js';
import { type GrantScope, grantScopeProblem } from '../core/grant-scope.js';
import type { GrantFilter, NewGrant } from '../core/session-inputs.js';
import type { GrantRecord, GrantRevoker } from '../core/session-records.js';
import { StoreNotFoundError } from '../core/store-errors.js';
import { filteredList, fromJson, iso, opt, optIso, orNull, requireOneOf, requireText } from './rows.js';
import type { SessionsTable } from './sessions-table.js';
import type { StoreContext } from './store-context.js';

export interface GrantRow {
  id: string;
  session_id: string | null;
  tool_name: string;
  scope: string | null;
  approval_id: string | null;
  created_at: number;
  revoked_at: number | null;
  revoked_by: GrantRevoker | null;
  revoked_reason: string | null;
  noticed_at: number | null;
}

/** Why a grant a person withdrew no longer holds, when they gave no reason. */
export const REVOKED = 'withdrawn by the person';

export function toRecord(row: GrantRow): GrantRecord {
  return {
    id: row.id,
    sessionId: opt(row.session_id),
    tool: row.tool_name,
    scope: row.scope === null ? undefined : fromJson<GrantScope>(row.scope),
    approvalId: opt(row.approval_id),
    createdAt: iso(row.created_at),
    revokedAt: optIso(row.revoked_at),
    revokedBy: opt(row.revoked_by),
    revokedReason: opt(row.revoked_reason),
    noticedAt: optIso(row.noticed_at),
  };
}

/** A scope as stored: refused with what is wrong when it is not one. */
export function scopeText(scope: unknown): string {
  const problem = grantScopeProblem(scope);
  if (problem !== undefined) throw new InputError(`The scope of a grant is not usable: ${problem}.`);
  return JSON.stringify(scope);
}

/** The grants table: standing permissions, each scoped to what the person saw, kept when withdrawn. */
export function grantsTable(ctx: StoreContext, sessions: SessionsTable) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO grants (id, session_id, tool_name, scope, approval_id, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const find = db.prepare(
    `SELECT * FROM grants WHERE ifnull(session_id, '') = ? AND tool_name = ? AND scope = ? AND revoked_at IS NULL`,
  );
  const byId = db.prepare('SELECT * FROM grants WHERE id = ?');
  const list = filteredList(db, (where) => `SELECT * FROM grants ${where} ORDER BY rowid`, {
    // The grants of every session (stored with none), and the named session's.
    session: `ifnull(session_id, '') IN ('', @session)`,
    tool: 'tool_name = @tool',
    status: (v) => (v === 'revoked' ? 'revoked_at IS NOT NULL' : 'revoked_at IS NULL'),
  });
  const revoke = db.prepare(
    `UPDATE grants SET revoked_at = ?, revoked_by = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL`,
  );
  const noticed = db.prepare('UPDATE grants SET noticed_at = ? WHERE id = ? AND noticed_at IS NULL');
  const approvalExists = db.prepare('SELECT 1 FROM approvals WHERE id = ?').pluck();
  const get = (id: string): GrantRecord | undefined => {
    const row = byId.get(id) as GrantRow | undefined;
    return row === undefined ? undefined : toRecord(row);
  };

  return {
    add(input: NewGrant): GrantRecord {
      const tool = requireText(input.tool, 'The tool of a grant');
      const scope = scopeText(input.scope);
      return ctx.write((): GrantRecord => {
        if (input.sessionId !== undefined) sessions.mustExist(input.sessionId);
        if (input.approvalId !== undefined && approvalExists.get(input.approvalId) === undefined)
          throw new StoreNotFoundError('approval', input.approvalId);
        const id = ctx.newId('g');
        insert.run(id, orNull(input.sessionId), tool, scope, orNull(input.approvalId), ctx.now());
        return toRecord(find.get(input.sessionId ?? '', tool, scope) as GrantRow);
      });
    },
    get,
    list(filter: GrantFilter = {}): GrantRecord[] {
      const status = requireOneOf(filter.status ?? 'active', ['active', 'revoked', 'all'], 'A grant status');
      const rows = list({
        session: filter.allSessions === true ? undefined : (filter.sessionId ?? ''),
        tool: filter.tool,
        status: status === 'all' ? undefined : status,
      });
      return (rows as GrantRow[]).map(toRecord);
    },
    revoke(id: string, reason?: string, by: GrantRevoker = 'person'): boolean {
      const why = reason === undefined ? REVOKED : requireText(reason, 'Why a grant is withdrawn');
      return ctx.write(() => {
        if (revoke.run(ctx.now(), by, why, id).changes === 1) return true;
        if (byId.get(id) === undefined) throw new StoreNotFoundError('grant', id);
        return false;
      });
    },
    markNoticed(ids: readonly string[]): void {
      ctx.write(() => {
        for (const id of ids) noticed.run(ctx.now(), id);
      });
    },
  };
}

/** The grants table module's interface. */
export type GrantsTable = ReturnType<typeof grantsTable>;
