import type { ModelReply, NewToolCall, ToolCallFilter, ToolCallOutcome } from '../../core/session-inputs.js';
import type { StoredMessage, ToolCallRecord } from '../../core/session-records.js';
import { StoreConflictError, StoreNotFoundError } from '../../core/store-errors.js';
import { orNull, statusFilter, statusSet } from '../rows.js';
import {
  type CallRow,
  callTaken,
  checkedCall,
  replyMessage,
  STATUSES,
  settlesFrom,
  toRecord,
} from '../tool-calls-table.js';
import type { PgContext } from './pg-context.js';
import type { PgConversation } from './pg-conversation.js';
import { statusesIn, whereOf } from './pg-rows.js';

/** Tool calls on Postgres; a claim is one conditional UPDATE, which the row lock makes exactly-once. */
export function pgToolCalls(ctx: PgContext, talk: PgConversation) {
  const get = async (turnId: string, callId: string): Promise<ToolCallRecord | undefined> => {
    const row = await ctx.get<CallRow>('SELECT * FROM tool_calls WHERE turn_id = ? AND call_id = ?', [
      turnId,
      callId,
    ]);
    return row && toRecord(row);
  };
  const mustGet = async (turnId: string, callId: string): Promise<ToolCallRecord> => {
    const call = await get(turnId, callId);
    if (!call) throw new StoreNotFoundError('tool call', `${turnId}/${callId}`);
    return call;
  };
  const changed = async (turnId: string, callId: string, changes: number): Promise<boolean> => {
    if (changes === 0) await mustGet(turnId, callId);
    return changes === 1;
  };

  async function insertCall(turnId: string, sessionId: string, call: NewToolCall): Promise<ToolCallRecord> {
    const checked = checkedCall(call);
    if (await get(turnId, checked.id)) throw callTaken(turnId, checked.id);
    const row = await ctx.get<CallRow>(
      `INSERT INTO tool_calls (turn_id, call_id, session_id, idx, tool_name, wire_name, raw_arguments, arguments,
         arguments_as_raw, digest, status, created_at, updated_at)
       VALUES (@turnId, @id, @sessionId, (SELECT count(*) FROM tool_calls WHERE turn_id = @turnId), @tool,
         @wireName, @rawArguments, @arguments, @asRaw, @digest, @status, @now, @now)
       RETURNING *`,
      { turnId, sessionId, ...checked, now: ctx.now() },
    );
    return toRecord(row as CallRow);
  }

  return {
    get,
    mustGet,
    /** Records a reply's calls and its message (the caller ends the turn when asked), in one transaction. */
    recordModelReply(turnId: string, reply: ModelReply) {
      return ctx.write(async () => {
        const sessionId = await talk.mustGetSessionId(turnId);
        const assistant = replyMessage(turnId, reply);
        // The session's row first: the calls' places in the turn and the message's seq follow commit order.
        await talk.lockSession(sessionId);
        const recorded: ToolCallRecord[] = [];
        for (const c of reply.calls ?? []) recorded.push(await insertCall(turnId, sessionId, c));
        const message = await talk.appendToTurn(turnId, assistant, undefined, { argumentsInCalls: true });
        return { message, calls: recorded };
      });
    },
    async list(filter: ToolCallFilter): Promise<ToolCallRecord[]> {
      const statuses = statusFilter(filter.status, STATUSES, 'Tool call status');
      const { where, bound } = whereOf(
        { turnId: 'turn_id = @turnId', sessionId: 'session_id = @sessionId', statuses: statusesIn },
        { turnId: filter.turnId, sessionId: filter.sessionId, statuses },
      );
      return (await ctx.all<CallRow>(`SELECT * FROM tool_calls ${where} ORDER BY n`, bound)).map(toRecord);
    },
    async approve(turnId: string, callId: string): Promise<boolean> {
      const n = await ctx.run(
        `UPDATE tool_calls SET status = 'approved', updated_at = ? WHERE turn_id = ? AND call_id = ? AND status = 'pending'`,
        [ctx.now(), turnId, callId],
      );
      return changed(turnId, callId, n);
    },
    async claim(turnId: string, callId: string, owner?: string, options: { approving?: boolean } = {}) {
      // One statement: a second claimer waits on the row lock, then finds the status moved and changes nothing.
      const from = options.approving === true ? `status IN ('pending', 'approved')` : `status = 'approved'`;
      const n = await ctx.run(
        `UPDATE tool_calls SET status = 'running', claimed_by = ?, updated_at = ?
         WHERE turn_id = ? AND call_id = ? AND ${from}`,
        [orNull(owner), ctx.now(), turnId, callId],
      );
      return changed(turnId, callId, n);
    },
    recordResult(
      turnId: string,
      callId: string,
      outcome: ToolCallOutcome,
    ): Promise<{ readonly call: ToolCallRecord; readonly message: StoredMessage }> {
      const from = settlesFrom(callId, outcome);
      return ctx.write(async () => {
        const settled = await ctx.get<CallRow>(
          `UPDATE tool_calls SET status = @status, result = @content, is_error = @isError, not_run = @notRun,
             refused_by = @refusedBy, updated_at = @now
           WHERE turn_id = @turnId AND call_id = @callId AND ${statusesIn(statusSet(from))}
           RETURNING *`,
          {
            turnId,
            callId,
            status: outcome.status,
            content: outcome.content,
            isError: outcome.isError ? 1 : 0,
            notRun: orNull(outcome.notRun),
            refusedBy: orNull(outcome.refusedBy),
            now: ctx.now(),
          },
        );
        if (settled === undefined) {
          const current = await mustGet(turnId, callId);
          throw new StoreConflictError('tool call', `${turnId}/${callId}`, current.status, outcome.status);
        }
        const call = toRecord(settled);
        const message = await talk.appendToTurn(
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
        if (call.status === 'done') await talk.addToolsUsed(call.sessionId, [call.tool]);
        return { call, message };
      });
    },
  };
}

/** The tool calls module's interface. */
export type PgToolCalls = ReturnType<typeof pgToolCalls>;
