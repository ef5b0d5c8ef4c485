import type { ApprovalDecision } from '../core/approval.js';
import { InputError } from '../core/errors.js';
import type { GrantScope } from '../core/grant-scope.js';
import type { JsonObject } from '../core/json.js';
import type { AnswerOptions, ApprovalFilter, NewApproval } from '../core/session-inputs.js';
import {
  type ApprovalRecord,
  type ApprovalScope,
  type ApprovalStatus,
  isPastDeadline,
} from '../core/session-records.js';
import {
  AlwaysNotOfferedError,
  ApprovalClosedError,
  ApprovalMismatchError,
  StoreConflictError,
} from '../core/store-errors.js';
import type { RiskLevel } from '../core/tool.js';
import type { AuditTable } from './audit-table.js';
import { type GrantsTable, scopeText } from './grants-table.js';
import {
  filteredList,
  fromJson,
  iso,
  msFrom,
  mustRead,
  opt,
  optIso,
  orNull,
  pickId,
  requireOneOf,
  requireText,
  rowReader,
  statusFilter,
  statusIn,
  statusSet,
  textOrNull,
} from './rows.js';
import type { StoreContext } from './store-context.js';
import type { ToolCallsTable } from './tool-calls-table.js';
import type { TurnsTable } from './turns-table.js';

export interface ApprovalRow {
  id: string;
  session_id: string;
  turn_id: string;
  call_id: string;
  tool_name: string;
  arguments: string;
  /** The call's arguments as JSON text, selected when `arguments` is '' (see `CALL_ARGUMENTS_SQL`). */
  call_arguments?: string | null;
  digest: string;
  risk: RiskLevel;
  meaning: string;
  leaf_title: string | null;
  status: ApprovalStatus;
  scope: ApprovalScope | null;
  reason: string | null;
  answered_by: string | null;
  created_at: number;
  answered_at: number | null;
  expires_at: number | null;
  always: string | null;
  notice: string | null;
}

/** Why an approval answered after its deadline was closed instead. */
export const PAST_DEADLINE = 'answered after its deadline';

export const STATUSES: readonly ApprovalStatus[] = ['pending', 'approved', 'denied', 'expired', 'cancelled'];
export const RISKS: readonly RiskLevel[] = ['safe', 'caution', 'destructive'];

/** What an approval's `arguments` column holds for "the arguments its call keeps" (stored once, there). */
export const CALL_ARGUMENTS = '';

/**
 * The selected column holding the arguments an approval reads from its call (when it keeps none of its
 * own): the call's raw text when that is what its arguments read as, else their JSON. Read in the same
 * statement, so a waiting turn's poll costs one lookup.
 */
const CALL_ARGUMENTS_SQL = `CASE WHEN approvals.arguments = '' THEN (SELECT CASE WHEN c.arguments_as_raw = 1
  THEN c.raw_arguments ELSE c.arguments END FROM tool_calls c
  WHERE c.turn_id = approvals.turn_id AND c.call_id = approvals.call_id) END AS call_arguments`;

export function toRecord(row: ApprovalRow): ApprovalRecord {
  const text = row.arguments === CALL_ARGUMENTS ? (row.call_arguments ?? '{}') : row.arguments;
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    callId: row.call_id,
    tool: row.tool_name,
    arguments: fromJson<JsonObject>(text),
    digest: row.digest,
    risk: row.risk,
    meaning: row.meaning,
    ...(row.leaf_title === null ? {} : { leafTitle: row.leaf_title }),
    ...(row.always === null ? {} : { always: fromJson<GrantScope>(row.always) }),
    ...(row.notice === null ? {} : { notice: row.notice }),
    status: row.status,
    scope: opt(row.scope),
    reason: opt(row.reason),
    answeredBy: opt(row.answered_by),
    createdAt: iso(row.created_at),
    answeredAt: optIso(row.answered_at),
    expiresAt: optIso(row.expires_at),
  };
}

/** The reach of an approving decision ('once' unless "always"); undefined for a denial. */
export function scopeOf(decision: ApprovalDecision): ApprovalScope | undefined {
  requireOneOf(decision?.kind, ['approve', 'deny'] as const, 'An approval decision kind');
  if (decision.kind === 'deny') return undefined;
  if (decision.always === undefined) return 'once';
  return requireOneOf(decision.always, ['session', 'forever'] as const, 'The reach of "approve always"');
}

/** The approvals table: questions about exact calls, answerable from any process. */
export function approvalsTable(
  ctx: StoreContext,
  turns: TurnsTable,
  calls: ToolCallsTable,
  grants: GrantsTable,
  audit: AuditTable,
) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO approvals (id, session_id, turn_id, call_id, tool_name, arguments, digest, risk, meaning,
       leaf_title, status, created_at, expires_at, always, notice)
     VALUES (@id, @sessionId, @turnId, @callId, @tool, @arguments, @digest, @risk, @meaning, @leafTitle, 'pending',
       @now, @expiresAt, @always, @notice)`,
  );
  const byId = db.prepare(`SELECT *, ${CALL_ARGUMENTS_SQL} FROM approvals WHERE id = ?`);
  const pendingFor = db.prepare(
    `SELECT id FROM approvals WHERE turn_id = ? AND call_id = ? AND status = 'pending'`,
  );
  const list = filteredList(
    db,
    (where) => `SELECT *, ${CALL_ARGUMENTS_SQL} FROM approvals ${where} ORDER BY rowid`,
    {
      sessionId: 'session_id = @sessionId',
      turnId: 'turn_id = @turnId',
      statuses: statusIn,
    },
  );
  const closeRow = db.prepare(
    `UPDATE approvals SET status = @status, scope = @scope, reason = @reason, answered_by = @answeredBy,
       answered_at = @now
     WHERE id = @id AND status = 'pending'`,
  );

  const get = rowReader(byId, toRecord);
  const mustGet = mustRead('approval', get);
  const note = (kind: string, a: ApprovalRecord) =>
    audit.add({
      kind,
      sessionId: a.sessionId,
      turnId: a.turnId,
      detail: {
        approvalId: a.id,
        callId: a.callId,
        tool: a.tool,
        status: a.status,
        ...(a.scope ? { scope: a.scope } : {}),
        ...(a.reason ? { reason: a.reason } : {}),
        ...(a.answeredBy ? { answeredBy: a.answeredBy } : {}),
      },
    });
  function close(id: string, status: 'expired' | 'cancelled', reason?: string): boolean {
    requireOneOf(status, ['expired', 'cancelled'] as const, 'A closing status');
    return ctx.write(() => {
      const params = { id, status, scope: null, reason: orNull(reason), answeredBy: null, now: ctx.now() };
      if (closeRow.run(params).changes === 0) {
        mustGet(id);
        return false;
      }
      note('approval.closed', mustGet(id));
      return true;
    });
  }

  return {
    request(input: NewApproval): ApprovalRecord {
      const risk = requireOneOf(input.risk, RISKS, 'An approval risk');
      const meaning = requireText(input.meaning, 'What approving means');
      const expiresAt = msFrom(input.expiresAt, 'An approval expiry');
      const always = input.always === undefined ? null : scopeText(input.always);
      const notice = textOrNull(input.notice, 'A notice shown with the question');
      return ctx.write(() => {
        const call = calls.mustGet(input.turnId, input.callId);
        const key = `${call.turnId}/${call.id}`;
        if (call.status !== 'pending')
          throw new StoreConflictError('tool call', key, call.status, 'put to a person');
        if (!call.arguments) {
          throw new InputError(`Call ${key} has arguments that could not be read; it cannot be approved.`);
        }
        const open = pendingFor.get(call.turnId, call.id) as { id: string } | undefined;
        if (open)
          throw new StoreConflictError(
            'tool call',
            key,
            `already waiting on approval ${open.id}`,
            'put to a person again',
          );
        if (!turns.setStatus(call.turnId, 'waiting_approval', { from: ['running', 'waiting_approval'] })) {
          const turn = turns.mustGet(call.turnId);
          throw new StoreConflictError('turn', turn.id, turn.status, 'waiting_approval');
        }
        const id = pickId(input.id, () => ctx.newId('ap'), 'approval', get);
        insert.run({
          id,
          sessionId: call.sessionId,
          turnId: call.turnId,
          callId: call.id,
          tool: call.tool,
          arguments: CALL_ARGUMENTS,
          digest: call.digest,
          risk,
          meaning,
          leafTitle: orNull(input.leafTitle),
          now: ctx.now(),
          expiresAt,
          always,
          notice,
        });
        const approval = mustGet(id);
        note('approval.requested', approval);
        return approval;
      });
    },
    get,
    list(filter: ApprovalFilter = {}): ApprovalRecord[] {
      const statuses = statusFilter(filter.status, STATUSES, 'Approval status');
      const rows = list({ sessionId: filter.sessionId, turnId: filter.turnId, statuses });
      return (rows as ApprovalRow[]).map(toRecord);
    },
    answer(id: string, decision: ApprovalDecision, options: AnswerOptions = {}): ApprovalRecord {
      const scope = scopeOf(decision);
      const outcome = ctx.write((): { answered: ApprovalRecord } | { closed: string } => {
        const current = mustGet(id);
        if (current.status !== 'pending') return { closed: current.status };
        // The deadline is final: an answer after it would run a call its turn already gave up on.
        if (isPastDeadline(current, ctx.now())) {
          const params = { id, status: 'expired', scope: null, reason: PAST_DEADLINE, answeredBy: null };
          closeRow.run({ ...params, now: ctx.now() });
          note('approval.closed', mustGet(id));
          return { closed: 'expired' };
        }
        if (options.digest !== undefined && options.digest !== current.digest) {
          throw new ApprovalMismatchError(id, current.digest, options.digest);
        }
        // "Always" grants what the question showed it would: nothing when it showed nothing.
        const standing = scope === 'session' || scope === 'forever';
        if (standing && current.always === undefined) throw new AlwaysNotOfferedError(id);
        closeRow.run({
          id,
          status: scope ? 'approved' : 'denied',
          scope: orNull(scope),
          reason: decision.kind === 'deny' ? orNull(decision.reason) : null,
          answeredBy: orNull(options.answeredBy),
          now: ctx.now(),
        });
        if (scope && !calls.approve(current.turnId, current.callId)) {
          const call = calls.mustGet(current.turnId, current.callId);
          throw new StoreConflictError('tool call', `${call.turnId}/${call.id}`, call.status, 'approved');
        }
        if (standing && current.always !== undefined) {
          const sessionId = scope === 'session' ? current.sessionId : undefined;
          grants.add({ tool: current.tool, scope: current.always, sessionId, approvalId: id });
        }
        const answered = mustGet(id);
        note('approval.answered', answered);
        return { answered };
      });
      // Thrown after the write, so an approval found past its deadline stays closed as expired.
      if ('closed' in outcome) throw new ApprovalClosedError(id, outcome.closed);
      return outcome.answered;
    },
    close,
    /** Cancels whatever a turn still waits on (its turn has ended); returns how many. */
    cancelForTurn(turnId: string, reason: string): number {
      return ctx.write(() => {
        const open = list({ turnId, statuses: statusSet(['pending']) }) as ApprovalRow[];
        for (const row of open) close(row.id, 'cancelled', reason);
        return open.length;
      });
    },
  };
}

/** The approvals table module's interface. */
export type ApprovalsTable = ReturnType<typeof approvalsTable>;
