import { InputError } from '../core/errors.js';
import type { AssistantToolCall, ChatMessage } from '../core/model.js';
import type { MessagePage } from '../core/session-inputs.js';
import type { StoredMessage } from '../core/session-records.js';
import { fromJson, iso, keptAsWritten, limitBy, opt, sqlAfter, sqlLimit } from './rows.js';
import type { StoreContext } from './store-context.js';

export interface MessageRow {
  seq: number;
  session_id: string;
  turn_id: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
  wire_name: string | null;
  tool_name: string | null;
  is_error: number | null;
  created_at: number;
}

/** A stored call of an assistant message; `arguments` is left out where the call's own row keeps them. */
type StoredCall = Omit<AssistantToolCall, 'arguments'> & { readonly arguments?: string };

/** How `append` stores a message. */
export interface AppendOptions {
  /** The message's calls are recorded in `tool_calls`, which keeps their arguments: not stored twice. */
  readonly argumentsInCalls?: boolean;
}

/** The raw arguments a call of a stored assistant message keeps in its own row. */
export type CallArguments = (turnId: string, callId: string) => string | undefined;

function toMessage(row: MessageRow, rawArguments: CallArguments): ChatMessage {
  if (row.role === 'user') return { role: 'user', content: row.content };
  if (row.role === 'tool') {
    return {
      role: 'tool',
      toolCallId: row.tool_call_id ?? '',
      name: row.wire_name ?? '',
      content: row.content,
      isError: row.is_error === 1,
    };
  }
  const stored = row.tool_calls === null ? [] : fromJson<StoredCall[]>(row.tool_calls);
  const calls = stored.map(
    (c): AssistantToolCall =>
      c.arguments === undefined
        ? { ...c, arguments: rawArguments(row.turn_id, c.id) ?? '{}' }
        : (c as AssistantToolCall),
  );
  return calls.length > 0
    ? { role: 'assistant', content: row.content, toolCalls: calls }
    : { role: 'assistant', content: row.content };
}

export function toRecord(row: MessageRow, rawArguments: CallArguments): StoredMessage {
  return {
    seq: row.seq,
    sessionId: row.session_id,
    turnId: row.turn_id,
    createdAt: iso(row.created_at),
    message: toMessage(row, rawArguments),
    tool: opt(row.tool_name),
  };
}

export function checkMessage(message: ChatMessage): void {
  if (typeof message.content !== 'string') throw new InputError('A message needs text content (a string).');
  if (message.role === 'tool' && !message.toolCallId) {
    throw new InputError('A tool-result message needs the toolCallId of the call it answers.');
  }
  if (!['user', 'assistant', 'tool'].includes(message.role)) {
    throw new InputError(
      `A message role must be user, assistant or tool, got ${JSON.stringify(message.role)}.`,
    );
  }
}

/** An assistant message's calls as the `tool_calls` column keeps them (NULL for none). */
export function storedCalls(calls: readonly AssistantToolCall[], options: AppendOptions): string | null {
  if (calls.length === 0) return null;
  return JSON.stringify(
    calls.map(({ id, name, arguments: a, signature }) => ({
      id,
      name,
      ...(options.argumentsInCalls ? {} : { arguments: a }),
      ...(signature === undefined ? {} : { signature }),
    })),
  );
}

/** The messages table: the conversation in order. */
export function messagesTable(ctx: StoreContext) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO messages (session_id, turn_id, role, content, tool_calls, tool_call_id, wire_name, tool_name,
       is_error, created_at)
     VALUES (@sessionId, @turnId, @role, @content, @toolCalls, @toolCallId, @wireName, @toolName, @isError, @now)`,
  );
  const bySeq = db.prepare('SELECT * FROM messages WHERE seq = ?');
  const list = db.prepare(
    `SELECT * FROM messages WHERE session_id = ? AND seq > ? ORDER BY seq ${limitBy('?')}`,
  );
  const sessionArguments = db.prepare(
    'SELECT turn_id, call_id, raw_arguments FROM tool_calls WHERE session_id = ?',
  );
  const turnArguments = db.prepare('SELECT call_id, raw_arguments FROM tool_calls WHERE turn_id = ?');
  /** The calls' arguments of a session, read in one query the first time a listed message needs them. */
  const fromSession = (sessionId: string): CallArguments => {
    let byCall: Map<string, string> | undefined;
    return (turnId, callId) => {
      if (byCall === undefined) {
        const rows = sessionArguments.all(sessionId) as {
          turn_id: string;
          call_id: string;
          raw_arguments: string;
        }[];
        byCall = new Map(rows.map((r) => [`${r.turn_id}\u0000${r.call_id}`, r.raw_arguments]));
      }
      return byCall.get(`${turnId}\u0000${callId}`);
    };
  };
  /**
   * The calls' arguments turn by turn, each turn's read the first time a listed message needs them: a
   * page after a seq is usually the last round trip's few messages, and reading the arguments of every
   * call the session ever made for them would cost as much as reading the whole conversation.
   */
  const fromTurns = (): CallArguments => {
    const byTurn = new Map<string, Map<string, string>>();
    return (turnId, callId) => {
      let byCall = byTurn.get(turnId);
      if (byCall === undefined) {
        const rows = turnArguments.all(turnId) as { call_id: string; raw_arguments: string }[];
        byCall = new Map(rows.map((r) => [r.call_id, r.raw_arguments]));
        byTurn.set(turnId, byCall);
      }
      return byCall.get(callId);
    };
  };

  return {
    /** Appends one message; the caller has checked that the turn belongs to the session. */
    append(
      sessionId: string,
      turnId: string,
      message: ChatMessage,
      tool?: string,
      options: AppendOptions = {},
    ): StoredMessage {
      checkMessage(message);
      const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
      const result = message.role === 'tool' ? message : undefined;
      const row: Omit<MessageRow, 'seq'> = {
        session_id: sessionId,
        turn_id: turnId,
        role: message.role,
        content: message.content,
        tool_calls: storedCalls(calls, options),
        tool_call_id: result?.toolCallId ?? null,
        wire_name: result?.name ?? null,
        tool_name: result ? (tool ?? result.name) : null,
        is_error: result ? (result.isError ? 1 : 0) : null,
        created_at: ctx.now(),
      };
      const { lastInsertRowid } = insert.run({
        sessionId,
        turnId,
        role: row.role,
        content: row.content,
        toolCalls: row.tool_calls,
        toolCallId: row.tool_call_id,
        wireName: row.wire_name,
        toolName: row.tool_name,
        isError: row.is_error,
        now: row.created_at,
      });
      // The message just written: its calls' arguments are the ones given, not read back.
      const given = new Map(calls.map((c) => [c.id, c.arguments]));
      // The row as written is the row SQLite keeps, unless a text holds half of a character (SQLite keeps
      // that as bytes that read back otherwise): only then is it read back.
      const written = keptAsWritten(row)
        ? { ...row, seq: Number(lastInsertRowid) }
        : (bySeq.get(lastInsertRowid) as MessageRow);
      return toRecord(written, (_turn, callId) => given.get(callId));
    },
    list(sessionId: string, options: MessagePage = {}): StoredMessage[] {
      const read = options.afterSeq === undefined ? fromSession(sessionId) : fromTurns();
      return (
        list.all(sessionId, sqlAfter(options.afterSeq, 'afterSeq'), sqlLimit(options.limit)) as MessageRow[]
      ).map((row) => toRecord(row, read));
    },
  };
}

/** The messages table module's interface. */
export type MessagesTable = ReturnType<typeof messagesTable>;
