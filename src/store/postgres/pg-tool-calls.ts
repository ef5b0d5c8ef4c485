import { InputError } from '../../core/errors.js';
import type { ModelReply, NewToolCall, ToolCallFilter, ToolCallOutcome } from '../../core/session-inputs.js';
import type { StoredMessage, ToolCallRecord } from '../../core/session-records.js';
import { StoreConflictError, StoreNotFoundError } from '../../core/store-errors.js';
import { orNull, requireObject, requireOneOf, requireText, statusFilter, statusSet } from '../rows.js';
import { type CallRow, SETTLES_FROM, STATUSES, toRecord } from '../tool-calls-table.js';
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
    if (await get(turnId, id)) {
      throw new InputError(
        `Turn ${turnId} already has a call with id ${JSON.stringify(id)}; call ids must be unique in a turn.`,
      );
    }
    const row = await ctx.get<CallRow>(
      `INSERT INTO tool_calls (turn_id, call_id, session_id, idx, tool_name, wire_name, raw_arguments, arguments,
         arguments_as_raw, digest, status, created_at, updated_at)
       VALUES (@turnId, @id, @sessionId, (SELECT count(*) FROM tool_calls WHERE turn_id = @turnId), @tool,
         @wireName, @rawArguments, @arguments, @asRaw, @digest, @status, @now, @now)
       RETURNING *`,
      {
        turnId,
        id,
        sessionId,
        tool,
        wireName: requireText(call.wireName, `The wire name of call ${id}`),
        rawArguments: call.rawArguments,
        arguments: args === undefined || asRaw ? null : JSON.stringify(args),
        asRaw: asRaw ? 1 : 0,
        digest: requireText(call.digest, `The digest of call ${id}`),
        status: requireOneOf(
          call.status ?? 'pending',
          ['pending', 'approved'] as const,
          `The first status of call ${id}`,
        ),
        now: ctx.now(),
      },
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
        const calls = reply.calls ?? [];
        if (reply.endsTurn === true && calls.length > 0)
          throw new InputError(
            `A reply with calls cannot end turn ${turnId}: its calls are still to be run.`,
          );
        // The session's row first: the calls' places in the turn and the message's seq follow commit order.
        await talk.lockSession(sessionId);
        const recorded: ToolCallRecord[] = [];
        for (const c of calls) recorded.push(await insertCall(turnId, sessionId, c));
        const message = await talk.appendToTurn(
          turnId,
          {
            role: 'assistant',
            content: reply.content,
            toolCalls: calls.map((c) => ({
              id: c.id,
              name: c.wireName,
              arguments: c.rawArguments,
              ...(c.signature === undefined ? {} : { signature: c.signature }),
            })),
          },
          undefined,
          { argumentsInCalls: true },
        );
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
      const from = SETTLES_FROM[outcome.status];
      if (!from)
        throw new InputError(
          `A call outcome must be done, refused or failed, got ${JSON.stringify(outcome.status)}.`,
        );
      if (typeof outcome.content !== 'string')
        throw new InputError(
          `The content of the result of call ${callId} must be the text the model will read.`,
        );
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
