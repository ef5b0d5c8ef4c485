import { InputError } from '../core/errors.js';
import type { ChatMessage } from '../core/model.js';
import type { ModelReply, NewToolCall, ToolCallFilter, ToolCallOutcome } from '../core/session-inputs.js';
import type { StoredMessage, ToolCallRecord, ToolCallStatus } from '../core/session-records.js';
import { StoreConflictError, StoreNotFoundError } from '../core/store-errors.js';
import type { NotRunReason, RefusedBy } from '../core/tool.js';
import {
  filteredList,
  fromJson,
  inSet,
  iso,
  keptAsWritten,
  opt,
  optObject,
  orNull,
  requireObject,
  requireOneOf,
  requireText,
  statusFilter,
  statusIn,
  statusSet,
} from './rows.js';
import type { SessionsTable } from './sessions-table.js';
import type { StoreContext } from './store-context.js';
import type { TurnsTable } from './turns-table.js';

export interface CallRow {
  turn_id: string;
  call_id: string;
  session_id: string;
  idx: number;
  tool_name: string;
  wire_name: string;
  raw_arguments: string;
  arguments: string | null;
  arguments_as_raw: number;
  digest: string;
  status: ToolCallStatus;
  claimed_by: string | null;
  result: string | null;
  is_error: number | null;
  not_run: NotRunReason | null;
  refused_by: RefusedBy | null;
  created_at: number;
  updated_at: number;
}

export const STATUSES: readonly ToolCallStatus[] = [
  'pending',
  'approved',
  'running',
  'done',
  'refused',
  'failed',
];

/** Which statuses each outcome may settle from. */
export const SETTLES_FROM: Record<ToolCallOutcome['status'], readonly ToolCallStatus[]> = {
  done: ['running'],
  refused: ['pending', 'approved'],
  failed: ['pending', 'approved', 'running'],
};

/** Arguments kept as their raw text (see `NewToolCall.argumentsAsRaw`), read back as the object they are. */
function argumentsOf(raw: string): ToolCallRecord['arguments'] {
  return fromJson<ToolCallRecord['arguments']>(raw);
}

export function toRecord(row: CallRow): ToolCallRecord {
  return {
    id: row.call_id,
    turnId: row.turn_id,
    sessionId: row.session_id,
    index: row.idx,
    tool: row.tool_name,
    wireName: row.wire_name,
    rawArguments: row.raw_arguments,
    arguments: row.arguments_as_raw === 1 ? argumentsOf(row.raw_arguments) : optObject(row.arguments),
    digest: row.digest,
    status: row.status,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    claimedBy: opt(row.claimed_by),
    result: opt(row.result),
    isError: row.is_error === null ? undefined : row.is_error === 1,
    notRun: opt(row.not_run),
    refusedBy: opt(row.refused_by),
  };
}

/** A new call's fields as the insert binds them, each checked, naming the call and what is wrong. */
export function checkedCall(call: NewToolCall) {
  const id = requireText(call.id, 'A tool call id');
  const tool = requireText(call.tool, `The tool of call ${id}`);
  if (typeof call.rawArguments !== 'string') {
    throw new InputError(`The raw arguments of call ${id} must be the text the model sent.`);
  }
  if (call.signature !== undefined && typeof call.signature !== 'string') {
    throw new InputError(`The signature of call ${id} must be the text the provider sent, or be left out.`);
  }
  const args =
    call.arguments === undefined ? undefined : requireObject(call.arguments, `The arguments of call ${id}`);
  const asRaw = args !== undefined && call.argumentsAsRaw === true;
  return {
    id,
    tool,
    wireName: requireText(call.wireName, `The wire name of call ${id}`),
    rawArguments: call.rawArguments,
    // Arguments that are what the raw text reads as are kept once, as that text.
    arguments: args === undefined || asRaw ? null : JSON.stringify(args),
    asRaw: asRaw ? 1 : 0,
    digest: requireText(call.digest, `The digest of call ${id}`),
    status: requireOneOf(
      call.status ?? 'pending',
      ['pending', 'approved'] as const,
      `The first status of call ${id}`,
    ),
  };
}

/** The refusal of a call id the turn already has. */
export function callTaken(turnId: string, id: string): InputError {
  return new InputError(
    `Turn ${turnId} already has a call with id ${JSON.stringify(id)}; call ids must be unique in a turn.`,
  );
}

/** The assistant message of a reply, its calls' arguments left to their rows; refuses a reply that ends its turn with calls. */
export function replyMessage(turnId: string, reply: ModelReply): ChatMessage {
  const calls = reply.calls ?? [];
  if (reply.endsTurn === true && calls.length > 0)
    throw new InputError(`A reply with calls cannot end turn ${turnId}: its calls are still to be run.`);
  return {
    role: 'assistant',
    content: reply.content,
    toolCalls: calls.map((c) => ({
      id: c.id,
      name: c.wireName,
      arguments: c.rawArguments,
      ...(c.signature === undefined ? {} : { signature: c.signature }),
    })),
  };
}

/** The statuses an outcome may settle a call from; refuses an outcome that is not one, or without text. */
export function settlesFrom(callId: string, outcome: ToolCallOutcome): readonly ToolCallStatus[] {
  const from = SETTLES_FROM[outcome.status];
  if (!from)
    throw new InputError(
      `A call outcome must be done, refused or failed, got ${JSON.stringify(outcome.status)}.`,
    );
  if (typeof outcome.content !== 'string')
    throw new InputError(`The content of the result of call ${callId} must be the text the model will read.`);
  return from;
}

/** The tool_calls table: every call the model asked for and how far it got. */
export function toolCallsTable(ctx: StoreContext, sessions: SessionsTable, turns: TurnsTable) {
  const { db } = ctx;
  // No RETURNING: it makes SQLite keep a statement journal and look for approvals of the new key (a
  // check a plain insert skips), and the row is known without it.
  const insert = db.prepare(
    `INSERT INTO tool_calls (turn_id, call_id, session_id, idx, tool_name, wire_name, raw_arguments, arguments,
       arguments_as_raw, digest, status, created_at, updated_at)
     VALUES (@turnId, @id, @sessionId, @idx, @tool, @wireName, @rawArguments, @arguments, @asRaw, @digest,
       @status, @now, @now)`,
  );
  const callsOfTurn = db.prepare('SELECT count(*) FROM tool_calls WHERE turn_id = ?').pluck();
  const byKey = db.prepare('SELECT * FROM tool_calls WHERE turn_id = ? AND call_id = ?');
  // Insertion order is the models' order; the clock can step back between two replies.
  const list = filteredList(db, (where) => `SELECT * FROM tool_calls ${where} ORDER BY rowid`, {
    turnId: 'turn_id = @turnId',
    sessionId: 'session_id = @sessionId',
    statuses: statusIn,
  });
  const approve = db.prepare(
    `UPDATE tool_calls SET status = 'approved', updated_at = ? WHERE turn_id = ? AND call_id = ? AND status = 'pending'`,
  );
  const claim = db.prepare(
    `UPDATE tool_calls SET status = 'running', claimed_by = ?, updated_at = ?
     WHERE turn_id = ? AND call_id = ? AND status = 'approved'`,
  );
  const approveAndClaim = db.prepare(
    `UPDATE tool_calls SET status = 'running', claimed_by = ?, updated_at = ?
     WHERE turn_id = ? AND call_id = ? AND (status = 'pending' OR status = 'approved')`,
  );
  // Read back by key after: cheaper than RETURNING (see the insert).
  const settle = db.prepare(
    `UPDATE tool_calls SET status = @status, result = @content, is_error = @isError, not_run = @notRun,
       refused_by = @refusedBy, updated_at = @now
     WHERE turn_id = @turnId AND call_id = @callId AND ${inSet('@from')}`,
  );

  const get = (turnId: string, callId: string): ToolCallRecord | undefined => {
    const row = byKey.get(turnId, callId) as CallRow | undefined;
    return row && toRecord(row);
  };
  const mustGet = (turnId: string, callId: string): ToolCallRecord => {
    const call = get(turnId, callId);
    if (!call) throw new StoreNotFoundError('tool call', `${turnId}/${callId}`);
    return call;
  };
  /** Throws NotFound when missing; otherwise reports whether `changes` hit the row. */
  const changed = (turnId: string, callId: string, changes: number): boolean => {
    if (changes === 0) mustGet(turnId, callId);
    return changes === 1;
  };

  /** Stores a call as the turn's call number `idx`; returns it as SQLite keeps it. */
  function insertCall(turnId: string, sessionId: string, idx: number, call: NewToolCall): ToolCallRecord {
    const checked = checkedCall(call);
    const now = ctx.now();
    const row: CallRow = {
      turn_id: turnId,
      call_id: checked.id,
      session_id: sessionId,
      idx,
      tool_name: checked.tool,
      wire_name: checked.wireName,
      raw_arguments: checked.rawArguments,
      arguments: checked.arguments,
      arguments_as_raw: checked.asRaw,
      digest: checked.digest,
      status: checked.status,
      claimed_by: null,
      result: null,
      is_error: null,
      not_run: null,
      refused_by: null,
      created_at: now,
      updated_at: now,
    };
    // A repeated id is found by the table's key (turn, call id), not by a read before every insert.
    try {
      insert.run({ turnId, sessionId, idx, ...checked, now });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error;
      throw callTaken(turnId, checked.id);
    }
    // Read back only when SQLite would not keep a text as given (half of a character in it).
    return keptAsWritten(row) ? toRecord(row) : mustGet(turnId, checked.id);
  }

  return {
    get,
    mustGet,
    recordModelReply(turnId: string, reply: ModelReply) {
      return ctx.write(() => {
        const sessionId = turns.mustGetSessionId(turnId);
        const assistant = replyMessage(turnId, reply);
        // The calls first: the message keeps their arguments in their rows (stored once) and reads them from there.
        const calls = reply.calls ?? [];
        // Each call's place in the turn: after the calls of its earlier replies.
        const first = calls.length === 0 ? 0 : (callsOfTurn.get(turnId) as number);
        const recorded = calls.map((c, i) => insertCall(turnId, sessionId, first + i, c));
        const message = turns.appendTo(sessionId, turnId, assistant, undefined, { argumentsInCalls: true });
        return { message, calls: recorded };
      });
    },
    list(filter: ToolCallFilter): ToolCallRecord[] {
      const statuses = statusFilter(filter.status, STATUSES, 'Tool call status');
      const rows = list({ turnId: filter.turnId, sessionId: filter.sessionId, statuses });
      return (rows as CallRow[]).map(toRecord);
    },
    approve(turnId: string, callId: string): boolean {
      return changed(turnId, callId, approve.run(ctx.now(), turnId, callId).changes);
    },
    claim(turnId: string, callId: string, owner?: string, options: { approving?: boolean } = {}): boolean {
      // One statement either way: a call is approved and claimed in one commit, never left approved alone.
      const statement = options.approving === true ? approveAndClaim : claim;
      return changed(turnId, callId, statement.run(orNull(owner), ctx.now(), turnId, callId).changes);
    },
    recordResult(
      turnId: string,
      callId: string,
      outcome: ToolCallOutcome,
    ): { readonly call: ToolCallRecord; readonly message: StoredMessage } {
      const from = settlesFrom(callId, outcome);
      return ctx.write(() => {
        const { changes } = settle.run({
          turnId,
          callId,
          status: outcome.status,
          content: outcome.content,
          isError: outcome.isError ? 1 : 0,
          notRun: orNull(outcome.notRun),
          refusedBy: orNull(outcome.refusedBy),
          now: ctx.now(),
          from: statusSet(from),
        });
        const call = mustGet(turnId, callId);
        if (changes === 0)
          throw new StoreConflictError('tool call', `${turnId}/${callId}`, call.status, outcome.status);
        const message = turns.appendTo(
          call.sessionId,
          turnId,
          {
            role: 'tool',
            toolCallId: callId,
            name: call.wireName,
            content: outcome.content,
            isError: outcome.isError,
          },
          call.tool,
        );
        // the settled call's row names its session, which therefore exists
        if (call.status === 'done') sessions.addToolUsed(call.sessionId, call.tool);
        return { call, message };
      });
    },
  };
}

/** The tool_calls table module's interface. */
export type ToolCallsTable = ReturnType<typeof toolCallsTable>;
