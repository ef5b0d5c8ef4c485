import { InputError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { BatchFilter, LeafResult, NewBatch, NewLeaf } from '../core/session-inputs.js';
import type { BatchRecord, BatchStatus, LeafRecord, LeafStatus } from '../core/session-records.js';
import { StoreConflictError, StoreNotFoundError } from '../core/store-errors.js';
import {
  fromJson,
  iso,
  mustRead,
  opt,
  optIso,
  orNull,
  pickId,
  requireObject,
  requireOneOf,
  requireText,
  rowReader,
} from './rows.js';
import type { SessionsTable } from './sessions-table.js';
import type { StoreContext } from './store-context.js';

export interface BatchRow {
  id: string;
  parent_session_id: string;
  turn_id: string | null;
  call_id: string | null;
  title: string;
  status: BatchStatus;
  created_at: number;
  ended_at: number | null;
}

export interface LeafRow {
  id: string;
  batch_id: string;
  idx: number;
  title: string;
  contract: string;
  agent: string | null;
  status: LeafStatus;
  output: string | null;
  errors: string;
  child_session_id: string | null;
  started_at: number | null;
  ended_at: number | null;
}

type FinalLeafStatus = Exclude<LeafStatus, 'queued' | 'running'>;
export const FINAL_LEAF: readonly FinalLeafStatus[] = ['done', 'failed', 'timed_out'];

export function toLeaf(row: LeafRow): LeafRecord {
  return {
    id: row.id,
    batchId: row.batch_id,
    index: row.idx,
    title: row.title,
    contract: fromJson<JsonObject>(row.contract),
    agent: opt(row.agent),
    status: row.status,
    output: opt(row.output),
    errors: fromJson<string[]>(row.errors),
    childSessionId: opt(row.child_session_id),
    startedAt: optIso(row.started_at),
    endedAt: optIso(row.ended_at),
  };
}

/** The batches and leaves tables: subagent fan-outs that survive a crash. */
export function batchesTable(ctx: StoreContext, sessions: SessionsTable) {
  const { db } = ctx;
  const insertBatch = db.prepare(
    `INSERT INTO batches (id, parent_session_id, turn_id, call_id, title, status, created_at)
     VALUES (?, ?, ?, ?, ?, 'running', ?)`,
  );
  const insertLeaf = db.prepare(
    `INSERT INTO leaves (id, batch_id, idx, title, contract, agent, status) VALUES (?, ?, ?, ?, ?, ?, 'queued')`,
  );
  const batchById = db.prepare('SELECT * FROM batches WHERE id = ?');
  const leavesOf = db.prepare('SELECT * FROM leaves WHERE batch_id = ? ORDER BY idx');
  const leafById = db.prepare('SELECT * FROM leaves WHERE id = ?');
  const list = db.prepare(
    `SELECT * FROM batches WHERE (@parent IS NULL OR parent_session_id = @parent)
       AND (@unfinished = 0 OR status = 'running')
       AND (@child IS NULL OR id IN (SELECT batch_id FROM leaves WHERE child_session_id = @child))
     ORDER BY rowid`,
  );
  const claim = db.prepare(
    `UPDATE leaves SET status = 'running', child_session_id = ?, started_at = ? WHERE id = ? AND status = 'queued'`,
  );
  const requeue = db.prepare(`UPDATE leaves SET status = 'queued' WHERE id = ? AND status = 'running'`);
  const finish = db.prepare(
    `UPDATE leaves SET status = ?, output = ?, errors = ?, ended_at = ?
     WHERE id = ? AND status IN ('queued', 'running')`,
  );
  const finishBatch = db.prepare(
    `UPDATE batches SET status = ?, ended_at = ? WHERE id = ? AND status = 'running'`,
  );

  const withLeaves = (row: BatchRow): BatchRecord => ({
    id: row.id,
    parentSessionId: row.parent_session_id,
    turnId: opt(row.turn_id),
    callId: opt(row.call_id),
    title: row.title,
    status: row.status,
    createdAt: iso(row.created_at),
    endedAt: optIso(row.ended_at),
    leaves: (leavesOf.all(row.id) as LeafRow[]).map(toLeaf),
  });
  const get = (id: string): BatchRecord | undefined =>
    ctx.read(() => {
      const row = batchById.get(id) as BatchRow | undefined;
      return row && withLeaves(row);
    });
  const mustGetLeaf = mustRead('leaf', rowReader(leafById, toLeaf));
  const checkLeaf = (leaf: NewLeaf, i: number): void => {
    requireText(leaf?.title, `The title of leaf ${i + 1}`);
    requireObject(leaf.contract, `The contract of leaf ${i + 1}`);
  };

  return {
    create(input: NewBatch): BatchRecord {
      if (!Array.isArray(input.leaves) || input.leaves.length === 0) {
        throw new InputError('A batch needs at least one leaf.');
      }
      input.leaves.forEach(checkLeaf);
      return ctx.write(() => {
        sessions.mustExist(input.parentSessionId);
        const id = pickId(
          input.id,
          () => ctx.newId('b'),
          'batch',
          (i) => batchById.get(i),
        );
        const parent = input.parentSessionId;
        insertBatch.run(id, parent, orNull(input.turnId), orNull(input.callId), input.title ?? '', ctx.now());
        input.leaves.forEach((leaf, i) => {
          insertLeaf.run(
            ctx.newId('leaf'),
            id,
            i,
            leaf.title,
            JSON.stringify(leaf.contract),
            orNull(leaf.agent),
          );
        });
        return get(id) as BatchRecord;
      });
    },
    get,
    list(filter: BatchFilter = {}): BatchRecord[] {
      return ctx.read(() => {
        const rows = list.all({
          parent: filter.parentSessionId ?? null,
          unfinished: filter.unfinished ? 1 : 0,
          child: filter.childSessionId ?? null,
        });
        return (rows as BatchRow[]).map(withLeaves);
      });
    },
    claimLeaf(leafId: string, childSessionId: string): boolean {
      return ctx.write(() => {
        sessions.mustExist(childSessionId);
        const won = claim.run(childSessionId, ctx.now(), leafId).changes === 1;
        if (!won) mustGetLeaf(leafId);
        return won;
      });
    },
    requeueLeaf(leafId: string): boolean {
      const moved = requeue.run(leafId).changes === 1;
      if (!moved) mustGetLeaf(leafId);
      return moved;
    },
    finishLeaf(leafId: string, result: LeafResult): LeafRecord {
      const status = requireOneOf(result.status, FINAL_LEAF, 'A finished leaf status');
      const errors = result.errors ?? [];
      if (!Array.isArray(errors) || errors.some((e) => typeof e !== 'string')) {
        throw new InputError('Leaf errors must be a list of strings.');
      }
      return ctx.write(() => {
        const done = finish.run(status, orNull(result.output), JSON.stringify(errors), ctx.now(), leafId);
        const leaf = mustGetLeaf(leafId);
        if (done.changes === 0) throw new StoreConflictError('leaf', leafId, leaf.status, status);
        return leaf;
      });
    },
    finishBatch(id: string, status: Exclude<BatchStatus, 'running'>): boolean {
      requireOneOf(status, ['done', 'failed'] as const, 'A finished batch status');
      const moved = finishBatch.run(status, ctx.now(), id).changes === 1;
      if (!moved && !batchById.get(id)) throw new StoreNotFoundError('batch', id);
      return moved;
    },
  };
}
