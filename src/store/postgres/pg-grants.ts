import type { GrantFilter, NewGrant } from '../../core/session-inputs.js';
import type { GrantRecord, GrantRevoker } from '../../core/session-records.js';
import { StoreNotFoundError } from '../../core/store-errors.js';
import { type GrantRow, REVOKED, scopeText, toRecord } from '../grants-table.js';
import { orNull, requireOneOf, requireText } from '../rows.js';
import type { PgContext } from './pg-context.js';
import type { PgConversation } from './pg-conversation.js';
import { whereOf } from './pg-rows.js';

/** Grants on Postgres; the partial unique index keeps one active grant per tool, session and scope. */
export function pgGrants(ctx: PgContext, talk: PgConversation) {
  const get = async (id: string): Promise<GrantRecord | undefined> => {
    const row = await ctx.get<GrantRow>('SELECT * FROM grants WHERE id = ?', [id]);
    return row && toRecord(row);
  };
  return {
    get,
    add(input: NewGrant): Promise<GrantRecord> {
      const tool = requireText(input.tool, 'The tool of a grant');
      const scope = scopeText(input.scope);
      return ctx.write(async () => {
        if (input.sessionId !== undefined) await talk.mustExist(input.sessionId);
        if (
          input.approvalId !== undefined &&
          (await ctx.get('SELECT 1 FROM approvals WHERE id = ?', [input.approvalId])) === undefined
        )
          throw new StoreNotFoundError('approval', input.approvalId);
        await ctx.run(
          `INSERT INTO grants (id, session_id, tool_name, scope, approval_id, created_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          [ctx.newId('g'), orNull(input.sessionId), tool, scope, orNull(input.approvalId), ctx.now()],
        );
        const row = await ctx.get<GrantRow>(
          `SELECT * FROM grants WHERE coalesce(session_id, '') = ? AND tool_name = ? AND scope = ? AND revoked_at IS NULL`,
          [input.sessionId ?? '', tool, scope],
        );
        return toRecord(row as GrantRow);
      });
    },
    async list(filter: GrantFilter = {}): Promise<GrantRecord[]> {
      const status = requireOneOf(filter.status ?? 'active', ['active', 'revoked', 'all'], 'A grant status');
      const { where, bound } = whereOf(
        {
          session: `coalesce(session_id, '') IN ('', @session)`,
          tool: 'tool_name = @tool',
          status: (v: string) => (v === 'revoked' ? 'revoked_at IS NOT NULL' : 'revoked_at IS NULL'),
        },
        {
          session: filter.allSessions === true ? undefined : (filter.sessionId ?? ''),
          tool: filter.tool,
          status: status === 'all' ? undefined : status,
        },
      );
      return (await ctx.all<GrantRow>(`SELECT * FROM grants ${where} ORDER BY n`, bound)).map(toRecord);
    },
    revoke(id: string, reason?: string, by: GrantRevoker = 'person'): Promise<boolean> {
      const why = reason === undefined ? REVOKED : requireText(reason, 'Why a grant is withdrawn');
      return ctx.write(async () => {
        const n = await ctx.run(
          'UPDATE grants SET revoked_at = ?, revoked_by = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL',
          [ctx.now(), by, why, id],
        );
        if (n === 1) return true;
        if ((await get(id)) === undefined) throw new StoreNotFoundError('grant', id);
        return false;
      });
    },
    markNoticed(ids: readonly string[]): Promise<void> {
      return ctx.write(async () => {
        for (const id of ids)
          await ctx.run('UPDATE grants SET noticed_at = ? WHERE id = ? AND noticed_at IS NULL', [
            ctx.now(),
            id,
          ]);
      });
    },
  };
}

/** The grants module's interface. */
export type PgGrants = ReturnType<typeof pgGrants>;
