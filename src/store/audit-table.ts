import type { JsonObject } from '../core/json.js';
import type { AuditFilter, NewAuditEvent } from '../core/session-inputs.js';
import type { AuditRecord } from '../core/session-records.js';
import { fromJson, iso, limitBy, opt, orNull, requireObject, requireText, sqlLimit } from './rows.js';
import type { StoreContext } from './store-context.js';

export interface AuditRow {
  id: number;
  kind: string;
  session_id: string | null;
  turn_id: string | null;
  detail: string;
  created_at: number;
}

export function toRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    kind: row.kind,
    sessionId: opt(row.session_id),
    turnId: opt(row.turn_id),
    detail: fromJson<JsonObject>(row.detail),
    createdAt: iso(row.created_at),
  };
}

/** The audit table: an append-only trail of what happened. */
export function auditTable(ctx: StoreContext) {
  const { db } = ctx;
  const insert = db.prepare(
    'INSERT INTO audit (kind, session_id, turn_id, detail, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const byId = db.prepare('SELECT * FROM audit WHERE id = ?');
  // The newest `limit` matching rows, handed back oldest first.
  const list = db.prepare(
    `SELECT * FROM (
       SELECT * FROM audit WHERE (@sessionId IS NULL OR session_id = @sessionId)
         AND (@turnId IS NULL OR turn_id = @turnId) AND (@kind IS NULL OR kind = @kind)
       ORDER BY id DESC ${limitBy('@limit')}
     ) ORDER BY id`,
  );

  return {
    add(input: NewAuditEvent): AuditRecord {
      const detail = input.detail === undefined ? {} : requireObject(input.detail, 'An audit detail');
      const { lastInsertRowid } = insert.run(
        requireText(input.kind, 'An audit kind'),
        orNull(input.sessionId),
        orNull(input.turnId),
        JSON.stringify(detail),
        ctx.now(),
      );
      return toRecord(byId.get(lastInsertRowid) as AuditRow);
    },
    list(filter: AuditFilter = {}): AuditRecord[] {
      const rows = list.all({
        sessionId: filter.sessionId ?? null,
        turnId: filter.turnId ?? null,
        kind: filter.kind ?? null,
        limit: sqlLimit(filter.limit),
      });
      return (rows as AuditRow[]).map(toRecord);
    },
  };
}

/** The audit table module's interface. */
export type AuditTable = ReturnType<typeof auditTable>;
