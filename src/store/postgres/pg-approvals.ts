import type { ApprovalDecision } from '../../core/approval.js';
import type { AnswerOptions, ApprovalFilter, NewApproval } from '../../core/session-inputs.js';
import { type ApprovalRecord, isPastDeadline } from '../../core/session-records.js';
import {
  AlwaysNotOfferedError,
  ApprovalClosedError,
  ApprovalMismatchError,
  StoreConflictError,
  StoreNotFoundError,
} from '../../core/store-errors.js';
import {
  type ApprovalRow,
  approvalRow,
  auditOf,
  checkAskable,
  checkedRequest,
  PAST_DEADLINE,
  STATUSES,
  scopeOf,
  toRecord,
} from '../approvals-table.js';
import { idTaken, orNull, pickId, requireOneOf, statusFilter, statusSet } from '../rows.js';
import type { PgAudit } from './pg-audit.js';
import type { PgContext } from './pg-context.js';
import type { PgConversation } from './pg-conversation.js';
import { insertingId } from './pg-errors.js';
import type { PgGrants } from './pg-grants.js';
import { statusesIn, whereOf } from './pg-rows.js';
import type { PgToolCalls } from './pg-tool-calls.js';

/** The arguments an approval reads from its call when it keeps none of its own, in the same statement. */
const CALL_ARGUMENTS_SQL = `CASE WHEN approvals.arguments = '' THEN (SELECT CASE WHEN c.arguments_as_raw = 1
  THEN c.raw_arguments ELSE c.arguments END FROM tool_calls c
  WHERE c.turn_id = approvals.turn_id AND c.call_id = approvals.call_id) END AS call_arguments`;

/** Approvals on Postgres: a pending approval is answered or closed by one conditional UPDATE. */
export function pgApprovals(
  ctx: PgContext,
  talk: PgConversation,
  calls: PgToolCalls,
  grants: PgGrants,
  audit: PgAudit,
) {
  const get = async (id: string): Promise<ApprovalRecord | undefined> => {
    const row = await ctx.get<ApprovalRow>(`SELECT *, ${CALL_ARGUMENTS_SQL} FROM approvals WHERE id = ?`, [
      id,
    ]);
    return row && toRecord(row);
  };
  const mustGet = async (id: string): Promise<ApprovalRecord> => {
    const found = await get(id);
    if (found === undefined) throw new StoreNotFoundError('approval', id);
    return found;
  };
  const list = async (filter: {
    sessionId?: string;
    turnId?: string;
    statuses?: string | null;
    userId?: string | null;
    ownerOnly?: string;
  }) => {
    const { where, bound } = whereOf(
      {
        sessionId: 'session_id = @sessionId',
        turnId: 'turn_id = @turnId',
        statuses: statusesIn,
        userId: 'session_id IN (SELECT id FROM sessions WHERE user_id = @userId)',
        ownerOnly: () => 'session_id IN (SELECT id FROM sessions WHERE user_id IS NULL)',
      },
      filter,
    );
    return ctx.all<ApprovalRow>(`SELECT *, ${CALL_ARGUMENTS_SQL} FROM approvals ${where} ORDER BY n`, bound);
  };
  const closeRow = (params: {
    id: string;
    status: string;
    scope: string | null;
    reason: string | null;
    answeredBy: string | null;
  }) =>
    ctx.run(
      `UPDATE approvals SET status = @status, scope = @scope, reason = @reason, answered_by = @answeredBy,
         answered_at = @now
       WHERE id = @id AND status = 'pending'`,
      { ...params, now: ctx.now() },
    );
  const note = (kind: string, a: ApprovalRecord) => audit.add(auditOf(kind, a));
  function close(id: string, status: 'expired' | 'cancelled', reason?: string): Promise<boolean> {
    requireOneOf(status, ['expired', 'cancelled'] as const, 'A closing status');
    return ctx.write(async () => {
      if ((await closeRow({ id, status, scope: null, reason: orNull(reason), answeredBy: null })) === 0) {
        await mustGet(id);
        return false;
      }
      await note('approval.closed', await mustGet(id));
      return true;
    });
  }

  return {
    get,
    close,
    request(input: NewApproval): Promise<ApprovalRecord> {
      const checked = checkedRequest(input);
      return ctx.write(async () => {
        // The call's row is held to the end, so two requests for one call never both pass the checks.
        const locked = await ctx.get(
          'SELECT 1 FROM tool_calls WHERE turn_id = ? AND call_id = ? FOR UPDATE',
          [input.turnId, input.callId],
        );
        if (locked === undefined)
          throw new StoreNotFoundError('tool call', `${input.turnId}/${input.callId}`);
        const call = await calls.mustGet(input.turnId, input.callId);
        checkAskable(call);
        const key = `${call.turnId}/${call.id}`;
        const open = await ctx.get<{ id: string }>(
          `SELECT id FROM approvals WHERE turn_id = ? AND call_id = ? AND status = 'pending'`,
          [call.turnId, call.id],
        );
        if (open)
          throw new StoreConflictError(
            'tool call',
            key,
            `already waiting on approval ${open.id}`,
            'put to a person again',
          );
        if (
          !(await talk.moveTurn(call.turnId, 'waiting_approval', { from: ['running', 'waiting_approval'] }))
        ) {
          const turn = await talk.mustGetTurn(call.turnId);
          throw new StoreConflictError('turn', turn.id, turn.status, 'waiting_approval');
        }
        const id = pickId(
          input.id,
          () => ctx.newId('ap'),
          'approval',
          () => undefined,
        );
        if (input.id !== undefined && (await get(id)) !== undefined) throw idTaken('approval', id);
        await insertingId('approval', id, 'approvals', () =>
          ctx.run(
            `INSERT INTO approvals (id, session_id, turn_id, call_id, tool_name, arguments, digest, risk, meaning,
               leaf_title, status, created_at, expires_at, always, notice)
             VALUES (@id, @sessionId, @turnId, @callId, @tool, @arguments, @digest, @risk, @meaning, @leafTitle,
               'pending', @now, @expiresAt, @always, @notice)`,
            approvalRow(id, call, checked, ctx.now()),
          ),
        );
        const approval = await mustGet(id);
        await note('approval.requested', approval);
        return approval;
      });
    },
    async list(filter: ApprovalFilter = {}): Promise<ApprovalRecord[]> {
      const statuses = statusFilter(filter.status, STATUSES, 'Approval status');
      const rows = await list({
        sessionId: filter.sessionId,
        turnId: filter.turnId,
        statuses,
        userId: filter.userId,
        ...(filter.userId === null ? { ownerOnly: 'yes' } : {}),
      } as never);
      return rows.map(toRecord);
    },
    async answer(
      id: string,
      decision: ApprovalDecision,
      options: AnswerOptions = {},
    ): Promise<ApprovalRecord> {
      const scope = scopeOf(decision);
      const outcome = await ctx.write(
        async (): Promise<{ answered: ApprovalRecord } | { closed: string }> => {
          // The row is held to the end: two answers from two processes are taken one after the other.
          const held = await ctx.get('SELECT 1 FROM approvals WHERE id = ? FOR UPDATE', [id]);
          if (held === undefined) throw new StoreNotFoundError('approval', id);
          const current = await mustGet(id);
          if (current.status !== 'pending') return { closed: current.status };
          if (isPastDeadline(current, ctx.now())) {
            await closeRow({ id, status: 'expired', scope: null, reason: PAST_DEADLINE, answeredBy: null });
            await note('approval.closed', await mustGet(id));
            return { closed: 'expired' };
          }
          if (options.digest !== undefined && options.digest !== current.digest) {
            throw new ApprovalMismatchError(id, current.digest, options.digest);
          }
          const standing = scope === 'session' || scope === 'forever';
          if (standing && current.always === undefined) throw new AlwaysNotOfferedError(id);
          await closeRow({
            id,
            status: scope ? 'approved' : 'denied',
            scope: orNull(scope),
            reason: decision.kind === 'deny' ? orNull(decision.reason) : null,
            answeredBy: orNull(options.answeredBy),
          });
          if (scope && !(await calls.approve(current.turnId, current.callId))) {
            const call = await calls.mustGet(current.turnId, current.callId);
            throw new StoreConflictError('tool call', `${call.turnId}/${call.id}`, call.status, 'approved');
          }
          if (standing && current.always !== undefined) {
            const sessionId = scope === 'session' ? current.sessionId : undefined;
            await grants.add({ tool: current.tool, scope: current.always, sessionId, approvalId: id });
          }
          const answered = await mustGet(id);
          await note('approval.answered', answered);
          return { answered };
        },
      );
      if ('closed' in outcome) throw new ApprovalClosedError(id, outcome.closed);
      return outcome.answered;
    },
    /** Cancels whatever a turn still waits on (its turn has ended); returns how many. */
    cancelForTurn(turnId: string, reason: string): Promise<number> {
      return ctx.write(async () => {
        const open = await list({ turnId, statuses: statusSet(['pending']) });
        for (const row of open) await close(row.id, 'cancelled', reason);
        return open.length;
      });
    },
  };
}

/** The approvals module's interface. */
export type PgApprovals = ReturnType<typeof pgApprovals>;
