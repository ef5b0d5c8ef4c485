import { InputError } from '../core/errors.js';
import { isPlainObject, type JsonObject } from '../core/json.js';
import { StoreNotFoundError } from '../core/store-errors.js';
import type { NewTurnEvent, StoredTurnEvent, TurnEventFilter } from '../core/turn-event-log.js';
import { iso, limitBy, requireText, sqlAfter, sqlLimit } from './rows.js';
import type { StoreContext } from './store-context.js';

export interface TurnEventRow {
  id: number;
  session_id: string;
  turn_id: string;
  type: string;
  data: string;
  created_at: number;
}

export function toRecord(row: TurnEventRow): StoredTurnEvent {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    type: row.type,
    data: JSON.parse(row.data) as JsonObject,
    createdAt: iso(row.created_at),
  };
}

/** How many events a list returns when the caller names no limit. */
export const DEFAULT_LIMIT = 1000;

/** The turn events table: what each turn sent its host, in the order sent. */
export function turnEventsTable(ctx: StoreContext) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO turn_events (session_id, turn_id, type, data, created_at)
     VALUES (@sessionId, @turnId, @type, @data, @now)`,
  );
  const sessionOfTurn = db.prepare('SELECT session_id FROM turns WHERE id = ?').pluck();
  const bySession = db.prepare(
    `SELECT * FROM turn_events WHERE session_id = ? AND id > ? ORDER BY id ${limitBy('?')}`,
  );
  const byTurn = db.prepare(
    `SELECT * FROM turn_events WHERE turn_id = ? AND id > ? ORDER BY id ${limitBy('?')}`,
  );
  const bySessionTurn = db.prepare(
    `SELECT * FROM turn_events WHERE turn_id = ? AND session_id = ? AND id > ? ORDER BY id ${limitBy('?')}`,
  );

  const lastOf = db.prepare('SELECT max(id) FROM turn_events WHERE session_id = ? AND id < ?').pluck();

  return {
    last(sessionId: string, before?: number): number {
      const below =
        before === undefined ? Number.MAX_SAFE_INTEGER : sqlAfter(before, 'The event id to look below');
      return (lastOf.get(requireText(sessionId, 'The session'), below) as number | null) ?? 0;
    },
    append(events: readonly NewTurnEvent[]): StoredTurnEvent[] {
      if (!Array.isArray(events)) throw new InputError('Turn events must be given as a list.');
      const rows = events.map(checked);
      if (rows.length === 0) return [];
      const now = ctx.now();
      return ctx.write(() => {
        const sessions = new Map<string, string | undefined>();
        return rows.map((row) => {
          if (!sessions.has(row.turnId)) sessions.set(row.turnId, sessionOfTurn.get(row.turnId) as string);
          const owner = sessions.get(row.turnId);
          if (owner === undefined) throw new StoreNotFoundError('turn', row.turnId);
          if (owner !== row.sessionId) {
            throw new InputError(`Turn ${row.turnId} belongs to session ${owner}, not ${row.sessionId}.`);
          }
          const data = JSON.stringify(row.data);
          const id = Number(insert.run({ ...row, data, now }).lastInsertRowid);
          return { ...row, id, createdAt: iso(now) };
        });
      });
    },
    list(filter: TurnEventFilter): StoredTurnEvent[] {
      const after = sqlAfter(filter.after, 'The event id to list after');
      const limit = sqlLimit(filter.limit ?? DEFAULT_LIMIT);
      const { sessionId, turnId } = filter;
      let rows: unknown[];
      if (turnId !== undefined && sessionId !== undefined) {
        rows = bySessionTurn.all(
          requireText(turnId, 'The turn'),
          requireText(sessionId, 'The session'),
          after,
          limit,
        );
      } else if (turnId !== undefined) rows = byTurn.all(requireText(turnId, 'The turn'), after, limit);
      else if (sessionId !== undefined)
        rows = bySession.all(requireText(sessionId, 'The session'), after, limit);
      else throw new InputError('Listing turn events needs a session id or a turn id.');
      return (rows as TurnEventRow[]).map(toRecord);
    },
  };
}

/** An event to append, its fields checked, naming the one that is wrong. */
export function checked(event: NewTurnEvent): NewTurnEvent {
  if (!isPlainObject(event)) throw new InputError('A turn event must be an object.');
  const data = (event as { data?: unknown }).data;
  if (!isPlainObject(data)) throw new InputError("A turn event's data must be a JSON object.");
  return {
    sessionId: requireText(event.sessionId, 'The session of a turn event'),
    turnId: requireText(event.turnId, 'The turn of a turn event'),
    type: requireText(event.type, 'The type of a turn event'),
    data: data as JsonObject,
  };
}

/** The turn events table module's interface. */
export type TurnEventsTable = ReturnType<typeof turnEventsTable>;
