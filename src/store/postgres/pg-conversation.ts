import type { ChatMessage } from '../../core/model.js';
import type {
  MessagePage,
  NewSession,
  NewTurn,
  SessionFilter,
  SessionPatch,
  TurnFilter,
  TurnMove,
} from '../../core/session-inputs.js';
import type {
  ListedSession,
  SessionRecord,
  StoredMessage,
  TurnRecord,
  TurnState,
} from '../../core/session-records.js';
import { FINAL_TURN_STATES } from '../../core/session-records.js';
import { StoreNotFoundError } from '../../core/store-errors.js';
import {
  type AppendOptions,
  type CallArguments,
  checkMessage,
  type MessageRow,
  toRecord as messageOf,
  storedCalls,
} from '../messages-table.js';
import {
  idTaken,
  orNull,
  pickId,
  requireOneOf,
  requireText,
  sqlAfter,
  sqlLimit,
  statusFilter,
  statusSet,
  textOrNull,
} from '../rows.js';
import {
  type SessionRow,
  toRecord as sessionOf,
  TOUCH_GRAIN_MS,
  titleFrom,
  toListed,
} from '../sessions-table.js';
import { checkedTurn, type TurnRow, toRecord as turnOf } from '../turns-table.js';
import type { PgContext } from './pg-context.js';
import { insertingId } from './pg-errors.js';
import { pgLimit, statusesIn, whereOf } from './pg-rows.js';

/** A session's used tools, in first-use order, as JSON text. */
const TOOLS = `(SELECT coalesce(json_agg(t.tool_name ORDER BY t.n), '[]')::text FROM session_tools t
  WHERE t.session_id = s.id) AS tools`;

const LISTED = `
  SELECT s.*, ${TOOLS},
    (SELECT b.parent_session_id FROM leaves l JOIN batches b ON b.id = l.batch_id
      WHERE l.child_session_id = s.id LIMIT 1) AS parent_session_id,
    (SELECT count(DISTINCT l.child_session_id) FROM batches b JOIN leaves l ON l.batch_id = b.id
      WHERE b.parent_session_id = s.id AND l.child_session_id IS NOT NULL) AS child_sessions
  FROM sessions s`;

const STATES: readonly TurnState[] = ['running', 'waiting_approval', ...FINAL_TURN_STATES];
const UNFINISHED = statusSet(['running', 'waiting_approval']);

/** Sessions, their messages and turns on Postgres: the same records and checks as the SQLite store. */
export function pgConversation(ctx: PgContext) {
  const getSession = async (id: string): Promise<SessionRecord | undefined> => {
    const row = await ctx.get<SessionRow>(`SELECT s.*, ${TOOLS} FROM sessions s WHERE s.id = ?`, [id]);
    return row && sessionOf(row);
  };
  const sessionExists = async (id: string) => ctx.get('SELECT 1 FROM sessions WHERE id = ?', [id]);
  const mustExist = async (id: string): Promise<void> => {
    if ((await sessionExists(id)) === undefined) throw new StoreNotFoundError('session', id);
  };
  /**
   * Holds the session's row until the transaction ends: messages and events of one session are then
   * numbered in the order they commit, so a reader paging after the last seq it saw misses none.
   */
  const lockSession = async (id: string): Promise<void> => {
    const row = await ctx.get('SELECT 1 FROM sessions WHERE id = ? FOR NO KEY UPDATE', [id]);
    if (row === undefined) throw new StoreNotFoundError('session', id);
  };
  /** Marks a session used now, unless it was marked less than `grainMs` ago (see TOUCH_GRAIN_MS). */
  const touch = async (id: string, grainMs = TOUCH_GRAIN_MS): Promise<void> => {
    const now = ctx.now();
    await ctx.run('UPDATE sessions SET updated_at = ? WHERE id = ? AND updated_at < ?', [
      now,
      id,
      now - grainMs,
    ]);
  };
  const addToolsUsed = (sessionId: string, tools: readonly string[]) =>
    ctx.write(async () => {
      await mustExist(sessionId);
      const now = ctx.now();
      for (const name of tools) {
        await ctx.run(
          'INSERT INTO session_tools (session_id, tool_name, first_used_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
          [sessionId, requireText(name, 'A tool name'), now],
        );
      }
    });

  /** The calls' raw arguments of a session (or of one turn at a time), read when a listed message needs them. */
  const argumentsFor = async (rows: readonly MessageRow[], sessionId: string, whole: boolean) => {
    const needed = rows.some((r) => r.role === 'assistant' && r.tool_calls !== null);
    const byCall = new Map<string, string>();
    if (needed) {
      const turnIds = [...new Set(rows.map((r) => r.turn_id))];
      const found = whole
        ? await ctx.all<{ turn_id: string; call_id: string; raw_arguments: string }>(
            'SELECT turn_id, call_id, raw_arguments FROM tool_calls WHERE session_id = ?',
            [sessionId],
          )
        : await ctx.all<{ turn_id: string; call_id: string; raw_arguments: string }>(
            'SELECT turn_id, call_id, raw_arguments FROM tool_calls WHERE turn_id = ANY(?::text[])',
            [turnIds],
          );
      for (const r of found) byCall.set(`${r.turn_id}\u0000${r.call_id}`, r.raw_arguments);
    }
    const read: CallArguments = (turnId, callId) => byCall.get(`${turnId}\u0000${callId}`);
    return read;
  };

  /** Appends one message; the caller has checked that the turn belongs to the session. */
  const appendTo = async (
    sessionId: string,
    turnId: string,
    message: ChatMessage,
    tool?: string,
    options: AppendOptions = {},
  ): Promise<StoredMessage> => {
    checkMessage(message);
    const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
    const result = message.role === 'tool' ? message : undefined;
    const toolCalls = storedCalls(calls, options);
    return ctx.write(async () => {
      await lockSession(sessionId);
      const row = await ctx.get<MessageRow>(
        `INSERT INTO messages (session_id, turn_id, role, content, tool_calls, tool_call_id, wire_name, tool_name,
           is_error, created_at)
         VALUES (@sessionId, @turnId, @role, @content, @toolCalls, @toolCallId, @wireName, @toolName, @isError, @now)
         RETURNING *`,
        {
          sessionId,
          turnId,
          role: message.role,
          content: message.content,
          toolCalls,
          toolCallId: result?.toolCallId ?? null,
          wireName: result?.name ?? null,
          toolName: result ? (tool ?? result.name) : null,
          isError: result ? (result.isError ? 1 : 0) : null,
          now: ctx.now(),
        },
      );
      const given = new Map(calls.map((c) => [c.id, c.arguments]));
      return messageOf(row as MessageRow, (_turn, callId) => given.get(callId));
    });
  };

  const getTurn = async (id: string): Promise<TurnRecord | undefined> => {
    const row = await ctx.get<TurnRow>('SELECT * FROM turns WHERE id = ?', [id]);
    return row && turnOf(row);
  };
  const mustGetTurn = async (id: string): Promise<TurnRecord> => {
    const turn = await getTurn(id);
    if (turn === undefined) throw new StoreNotFoundError('turn', id);
    return turn;
  };
  const mustGetSessionId = async (turnId: string): Promise<string> => {
    const row = await ctx.get<{ session_id: string }>('SELECT session_id FROM turns WHERE id = ?', [turnId]);
    if (row === undefined) throw new StoreNotFoundError('turn', turnId);
    return row.session_id;
  };

  return {
    getSession,
    mustExist,
    lockSession,
    addToolsUsed,
    touch,
    getTurn,
    mustGetTurn,
    mustGetSessionId,

    createSession(input: NewSession = {}): Promise<SessionRecord> {
      return ctx.write(async () => {
        const id = pickId(
          input.id,
          () => ctx.newId('s'),
          'session',
          () => undefined,
        );
        if ((await sessionExists(id)) !== undefined && input.id !== undefined) throw idTaken('session', id);
        const now = ctx.now();
        const userId = textOrNull(input.userId, "A session's user");
        if (userId !== null && (await ctx.get('SELECT 1 FROM users WHERE id = ?', [userId])) === undefined) {
          throw new StoreNotFoundError('user', userId);
        }
        const values = {
          userId,
          id,
          title: textOrNull(input.title, "A session's title") ?? '',
          agent: textOrNull(input.agent, "A session's agent"),
          provider: textOrNull(input.provider, "A session's provider"),
          model: textOrNull(input.model, "A session's model"),
          now,
        };
        const row = await insertingId('session', id, 'sessions', () =>
          ctx.get<SessionRow>(
            `INSERT INTO sessions (id, title, agent, provider, model, user_id, created_at, updated_at)
             VALUES (@id, @title, @agent, @provider, @model, @userId, @now, @now) RETURNING *, '[]' AS tools`,
            values,
          ),
        );
        return sessionOf(row as SessionRow);
      });
    },
    async listSessions(filter: SessionFilter = {}): Promise<ListedSession[]> {
      const limit = pgLimit(sqlLimit(filter.limit));
      const parent = textOrNull(filter.parentSessionId, 'A parent session id');
      const terms = [
        parent !== null
          ? `EXISTS (SELECT 1 FROM leaves l JOIN batches b ON b.id = l.batch_id
              WHERE l.child_session_id = s.id AND b.parent_session_id = @parent)`
          : filter.topLevel
            ? 'NOT EXISTS (SELECT 1 FROM leaves l WHERE l.child_session_id = s.id)'
            : '',
        filter.userId === undefined ? '' : filter.userId === null ? 's.user_id IS NULL' : 's.user_id = @user',
      ].filter((t) => t !== '');
      const where = terms.length === 0 ? '' : `WHERE ${terms.join(' AND ')}`;
      const rows = await ctx.all<Parameters<typeof toListed>[0]>(
        `${LISTED} ${where} ORDER BY s.updated_at DESC, s.n DESC LIMIT @limit`,
        {
          limit,
          ...(parent !== null ? { parent } : {}),
          ...(typeof filter.userId === 'string' ? { user: requireText(filter.userId, 'A user id') } : {}),
        },
      );
      return rows.map(toListed);
    },
    updateSession(id: string, changes: SessionPatch): Promise<SessionRecord> {
      const params = {
        id,
        title: textOrNull(changes.title, "A session's title"),
        agent: textOrNull(changes.agent, "A session's agent"),
        provider: textOrNull(changes.provider, "A session's provider"),
        model: textOrNull(changes.model, "A session's model"),
        now: ctx.now(),
      };
      return ctx.write(async () => {
        const done = await ctx.run(
          `UPDATE sessions SET title = coalesce(@title, title), agent = coalesce(@agent, agent),
             provider = coalesce(@provider, provider), model = coalesce(@model, model), updated_at = @now
           WHERE id = @id`,
          params,
        );
        if (done === 0) throw new StoreNotFoundError('session', id);
        return (await getSession(id)) as SessionRecord;
      });
    },

    startTurn(input: NewTurn): Promise<TurnRecord> {
      const ranWith = checkedTurn(input);
      return ctx.write(async () => {
        await lockSession(input.sessionId);
        const id = pickId(
          input.id,
          () => ctx.newId('t'),
          'turn',
          () => undefined,
        );
        if (input.id !== undefined && (await getTurn(id)) !== undefined) throw idTaken('turn', id);
        const now = ctx.now();
        const row = await insertingId('turn', id, 'turns', () =>
          ctx.get<TurnRow>(
            `INSERT INTO turns (id, session_id, status, user_text, owner, agent, mode, provider, model, base_url,
             config_file, config_sha256, workdir, started_at, owner_seen_at)
           VALUES (@id, @sessionId, 'running', @userText, @owner, @agent, @mode, @provider, @model, @baseURL,
             @configFile, @configSha256, @workdir, @now, @seenAt)
           RETURNING *`,
            {
              id,
              sessionId: input.sessionId,
              userText: input.userText,
              owner: orNull(input.owner),
              agent: orNull(input.agent),
              mode: orNull(input.mode),
              provider: orNull(input.provider),
              model: orNull(input.model),
              baseURL: orNull(input.baseURL),
              configFile: ranWith === undefined ? null : (ranWith.file ?? ''),
              configSha256: orNull(ranWith?.sha256),
              workdir: orNull(ranWith?.workdir),
              now,
              seenAt: input.owner === undefined ? null : now,
            },
          ),
        );
        await appendTo(input.sessionId, id, { role: 'user', content: input.userText });
        const title = titleFrom(input.userText);
        if (title) {
          await ctx.run(`UPDATE sessions SET title = ? WHERE id = ? AND title = ''`, [
            title,
            input.sessionId,
          ]);
        }
        await touch(input.sessionId, 0);
        return turnOf(row as TurnRow);
      });
    },
    async listTurns(filter: TurnFilter = {}): Promise<TurnRecord[]> {
      const statuses = statusFilter(filter.status, STATES, 'Turn state');
      const { where, bound } = whereOf(
        { sessionId: 'session_id = @sessionId', statuses: statusesIn },
        { sessionId: filter.sessionId, statuses },
      );
      return (await ctx.all<TurnRow>(`SELECT * FROM turns ${where} ORDER BY n`, bound)).map(turnOf);
    },
    /** Moves a turn when it is in one of `move.from` (compare-and-set); the caller cancels approvals of a final one. */
    async moveTurn(turnId: string, status: TurnState, options: TurnMove = {}): Promise<boolean> {
      requireOneOf(status, STATES, 'A turn state');
      const from = options.from === undefined ? UNFINISHED : statusFilter(options.from, STATES, 'Turn state');
      const owned = options.fromOwner === undefined ? '' : 'AND owner IS NOT DISTINCT FROM @fromOwner::text';
      const changed = await ctx.run(
        `UPDATE turns SET status = @status, owner = coalesce(@owner::text, owner), error = coalesce(@error::text, error),
           owner_seen_at = CASE WHEN @owner::text IS NULL THEN owner_seen_at ELSE @now::bigint END,
           ended_at = CASE WHEN @final::int = 1 THEN @now::bigint ELSE ended_at END
         WHERE id = @id AND ${statusesIn(from as string)} ${owned}`,
        {
          id: turnId,
          status,
          owner: orNull(options.owner),
          error: orNull(options.error),
          final: FINAL_TURN_STATES.includes(status) ? 1 : 0,
          now: ctx.now(),
          ...(options.fromOwner === undefined ? {} : { fromOwner: options.fromOwner }),
        },
      );
      if (changed === 0 && !(await getTurn(turnId))) throw new StoreNotFoundError('turn', turnId);
      return changed === 1;
    },
    touchTurnOwner(owner: string): Promise<number> {
      return ctx.run(`UPDATE turns SET owner_seen_at = ? WHERE owner = ? AND ${statusesIn(UNFINISHED)}`, [
        ctx.now(),
        owner,
      ]);
    },
    /** Appends a message to a turn's session and marks the session used. */
    appendToTurn(turnId: string, message: ChatMessage, tool?: string, options?: AppendOptions) {
      return ctx.write(async () => {
        const sessionId = await mustGetSessionId(turnId);
        const stored = await appendTo(sessionId, turnId, message, tool, options);
        await touch(sessionId);
        return stored;
      });
    },
    async listMessages(sessionId: string, page: MessagePage = {}): Promise<StoredMessage[]> {
      const after = sqlAfter(page.afterSeq, 'afterSeq');
      const limit = pgLimit(sqlLimit(page.limit));
      return ctx.read(async () => {
        const rows = await ctx.all<MessageRow>(
          'SELECT * FROM messages WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?',
          [sessionId, after, limit],
        );
        const read = await argumentsFor(rows, sessionId, page.afterSeq === undefined);
        return rows.map((row) => messageOf(row, read));
      });
    },
  };
}

/** The conversation module's interface. */
export type PgConversation = ReturnType<typeof pgConversation>;
