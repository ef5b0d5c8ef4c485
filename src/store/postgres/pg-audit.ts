import type { AuditFilter, NewAuditEvent } from '../../core/session-inputs.js';
import type { AuditRecord } from '../../core/session-records.js';
import { type AuditRow, toRecord } from '../audit-table.js';
import { orNull, requireObject, requireText, sqlLimit } from '../rows.js';
import type { PgContext } from './pg-context.js';
import { pgLimit } from './pg-rows.js';

/** The audit trail on Postgres. */
export function pgAudit(ctx: PgContext) {
  return {
    async add(input: NewAuditEvent): Promise<AuditRecord> {
      const detail = input.detail === undefined ? {} : requireObject(input.detail, 'An audit detail');
      const row = await ctx.get<AuditRow>(
        'INSERT INTO audit (kind, session_id, turn_id, detail, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
        [
          requireText(input.kind, 'An audit kind'),
          orNull(input.sessionId),
          orNull(input.turnId),
          JSON.stringify(detail),
          ctx.now(),
        ],
      );
      return toRecord(row as AuditRow);
    },
    async list(filter: AuditFilter = {}): Promise<AuditRecord[]> {
      const rows = await ctx.all<AuditRow>(
        `SELECT * FROM (
           SELECT * FROM audit WHERE (@sessionId::text IS NULL OR session_id = @sessionId)
             AND (@turnId::text IS NULL OR turn_id = @turnId) AND (@kind::text IS NULL OR kind = @kind)
           ORDER BY id DESC LIMIT @limit
         ) newest ORDER BY id`,
        {
          sessionId: filter.sessionId ?? null,
          turnId: filter.turnId ?? null,
          kind: filter.kind ?? null,
          limit: pgLimit(sqlLimit(filter.limit)),
        },
      );
      return rows.map(toRecord);
    },
  };
}

/** The audit module's interface. */
export type PgAudit = ReturnType<typeof pgAudit>;
