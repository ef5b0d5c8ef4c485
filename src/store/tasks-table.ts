import type { NewTask, TaskFilter, TaskPatch } from '../core/session-inputs.js';
import type { TaskRecord, TaskStatus } from '../core/session-records.js';
import { StoreNotFoundError } from '../core/store-errors.js';
import {
  inSet,
  iso,
  opt,
  orNull,
  requireOneOf,
  requireText,
  rowReader,
  statusFilter,
  textOrNull,
} from './rows.js';
import type { SessionsTable } from './sessions-table.js';
import type { StoreContext } from './store-context.js';

export interface TaskRow {
  id: string;
  title: string;
  detail: string;
  status: TaskStatus;
  session_id: string | null;
  created_at: number;
  updated_at: number;
}

export const STATUSES: readonly TaskStatus[] = ['pending', 'in_progress', 'completed', 'cancelled'];

export function toRecord(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    title: row.title,
    detail: row.detail,
    status: row.status,
    sessionId: opt(row.session_id),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The tasks table: the person's to-do list. */
export function tasksTable(ctx: StoreContext, sessions: SessionsTable) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO tasks (id, title, detail, status, session_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare('SELECT * FROM tasks WHERE id = ?');
  const list = db.prepare(
    `SELECT * FROM tasks WHERE (@sessionId IS NULL OR session_id = @sessionId)
       AND (@statuses IS NULL OR ${inSet('@statuses')})
     ORDER BY rowid`,
  );
  const patch = db.prepare(
    `UPDATE tasks SET title = coalesce(@title, title), detail = coalesce(@detail, detail),
       status = coalesce(@status, status), updated_at = @now
     WHERE id = @id`,
  );

  const get = rowReader(byId, toRecord);

  return {
    create(input: NewTask): TaskRecord {
      const title = requireText(input.title, 'A task title').trim();
      const status = requireOneOf(input.status ?? 'pending', STATUSES, 'A task status');
      const detail = textOrNull(input.detail, "A task's detail") ?? '';
      return ctx.write(() => {
        if (input.sessionId !== undefined) sessions.mustExist(input.sessionId);
        const id = ctx.newId('task');
        const now = ctx.now();
        insert.run(id, title, detail, status, orNull(input.sessionId), now, now);
        return get(id) as TaskRecord;
      });
    },
    get,
    list(filter: TaskFilter = {}) {
      const statuses = statusFilter(filter.status, STATUSES, 'Task status');
      return (list.all({ sessionId: filter.sessionId ?? null, statuses }) as TaskRow[]).map(toRecord);
    },
    update(id: string, changes: TaskPatch): TaskRecord {
      const done = patch.run({
        id,
        title: changes.title === undefined ? null : requireText(changes.title, 'A task title').trim(),
        detail: textOrNull(changes.detail, "A task's detail"),
        status: changes.status === undefined ? null : requireOneOf(changes.status, STATUSES, 'A task status'),
        now: ctx.now(),
      });
      if (done.changes === 0) throw new StoreNotFoundError('task', id);
      return get(id) as TaskRecord;
    },
  };
}
