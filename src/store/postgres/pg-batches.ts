import { InputError } from '../../core/errors.js';
import type { BatchFilter, LeafResult, NewBatch, NewLeaf } from '../../core/session-inputs.js';
import type { BatchRecord, BatchStatus, LeafRecord } from '../../core/session-records.js';
import { StoreConflictError, StoreNotFoundError } from '../../core/store-errors.js';
import { type BatchRow, batchOf, FINAL_LEAF, type LeafRow, toLeaf } from '../batches-table.js';
import { idTaken, orNull, pickId, requireObject, requireOneOf, requireText } from '../rows.js';
import type { PgContext } from './pg-context.js';
import type { PgConversation } from './pg-conversation.js';
import { insertingId } from './pg-errors.js';

/** Subagent batches and leaves on Postgres; a leaf is claimed by one conditional UPDATE. */
export function pgBatches(ctx: PgContext, talk: PgConversation) {
  const withLeaves = async (row: BatchRow): Promise<BatchRecord> =>
    batchOf(row, await ctx.all<LeafRow>('SELECT * FROM leaves WHERE batch_id = ? ORDER BY idx', [row.id]));
  const get = (id: string): Promise<BatchRecord | undefined> =>
    ctx.read(async () => {
      const row = await ctx.get<BatchRow>('SELECT * FROM batches WHERE id = ?', [id]);
      return row && withLeaves(row);
    });
  const mustGetLeaf = async (id: string): Promise<LeafRecord> => {
    const row = await ctx.get<LeafRow>('SELECT * FROM leaves WHERE id = ?', [id]);
    if (row === undefined) throw new StoreNotFoundError('leaf', id);
    return toLeaf(row);
  };
  const checkLeaf = (leaf: NewLeaf, i: number): void => {
    requireText(leaf?.title, `The title of leaf ${i + 1}`);
    requireObject(leaf.contract, `The contract of leaf ${i + 1}`);
  };

  return {
    createBatch(input: NewBatch): Promise<BatchRecord> {
      if (!Array.isArray(input.leaves) || input.leaves.length === 0) {
        throw new InputError('A batch needs at least one leaf.');
      }
      input.leaves.forEach(checkLeaf);
      return ctx.write(async () => {
        await talk.mustExist(input.parentSessionId);
        const id = pickId(
          input.id,
          () => ctx.newId('b'),
          'batch',
          () => undefined,
        );
        if (
          input.id !== undefined &&
          (await ctx.get('SELECT 1 FROM batches WHERE id = ?', [id])) !== undefined
        ) {
          throw idTaken('batch', id);
        }
        await insertingId('batch', id, 'batches', () =>
          ctx.run(
            `INSERT INTO batches (id, parent_session_id, turn_id, call_id, title, status, created_at)
           VALUES (?, ?, ?, ?, ?, 'running', ?)`,
            [
              id,
              input.parentSessionId,
              orNull(input.turnId),
              orNull(input.callId),
              input.title ?? '',
              ctx.now(),
            ],
          ),
        );
        for (const [i, leaf] of input.leaves.entries()) {
          await ctx.run(
            `INSERT INTO leaves (id, batch_id, idx, title, contract, agent, status) VALUES (?, ?, ?, ?, ?, ?, 'queued')`,
            [ctx.newId('leaf'), id, i, leaf.title, JSON.stringify(leaf.contract), orNull(leaf.agent)],
          );
        }
        return (await get(id)) as BatchRecord;
      });
    },
    getBatch: get,
    listBatches(filter: BatchFilter = {}): Promise<BatchRecord[]> {
      return ctx.read(async () => {
        const rows = await ctx.all<BatchRow>(
          `SELECT * FROM batches WHERE (@parent::text IS NULL OR parent_session_id = @parent)
             AND (@unfinished::int = 0 OR status = 'running')
             AND (@child::text IS NULL OR id IN (SELECT batch_id FROM leaves WHERE child_session_id = @child))
           ORDER BY n`,
          {
            parent: filter.parentSessionId ?? null,
            unfinished: filter.unfinished ? 1 : 0,
            child: filter.childSessionId ?? null,
          },
        );
        const out: BatchRecord[] = [];
        for (const row of rows) out.push(await withLeaves(row));
        return out;
      });
    },
    claimLeaf(leafId: string, childSessionId: string): Promise<boolean> {
      return ctx.write(async () => {
        await talk.mustExist(childSessionId);
        const won =
          (await ctx.run(
            `UPDATE leaves SET status = 'running', child_session_id = ?, started_at = ? WHERE id = ? AND status = 'queued'`,
            [childSessionId, ctx.now(), leafId],
          )) === 1;
        // The child session belongs to whoever owns the session that ran the batch.
        if (won) {
          await ctx.run(
            `UPDATE sessions SET user_id = (SELECT p.user_id FROM leaves l JOIN batches b ON b.id = l.batch_id
               JOIN sessions p ON p.id = b.parent_session_id WHERE l.id = ?)
             WHERE id = ?`,
            [leafId, childSessionId],
          );
        } else await mustGetLeaf(leafId);
        return won;
      });
    },
    async requeueLeaf(leafId: string): Promise<boolean> {
      const moved =
        (await ctx.run(`UPDATE leaves SET status = 'queued' WHERE id = ? AND status = 'running'`, [
          leafId,
        ])) === 1;
      if (!moved) await mustGetLeaf(leafId);
      return moved;
    },
    finishLeaf(leafId: string, result: LeafResult): Promise<LeafRecord> {
      const status = requireOneOf(result.status, FINAL_LEAF, 'A finished leaf status');
      const errors = result.errors ?? [];
      if (!Array.isArray(errors) || errors.some((e) => typeof e !== 'string')) {
        throw new InputError('Leaf errors must be a list of strings.');
      }
      return ctx.write(async () => {
        const done = await ctx.run(
          `UPDATE leaves SET status = ?, output = ?, errors = ?, ended_at = ? WHERE id = ? AND status IN ('queued', 'running')`,
          [status, orNull(result.output), JSON.stringify(errors), ctx.now(), leafId],
        );
        const leaf = await mustGetLeaf(leafId);
        if (done === 0) throw new StoreConflictError('leaf', leafId, leaf.status, status);
        return leaf;
      });
    },
    async finishBatch(id: string, status: Exclude<BatchStatus, 'running'>): Promise<boolean> {
      requireOneOf(status, ['done', 'failed'] as const, 'A finished batch status');
      const moved =
        (await ctx.run(`UPDATE batches SET status = ?, ended_at = ? WHERE id = ? AND status = 'running'`, [
          status,
          ctx.now(),
          id,
        ])) === 1;
      if (!moved && !(await ctx.get('SELECT 1 FROM batches WHERE id = ?', [id])))
        throw new StoreNotFoundError('batch', id);
      return moved;
    },
  };
}
