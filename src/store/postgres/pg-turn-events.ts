import type {
  CompactionRecord,
  FullResult,
  NewCompaction,
  NewUsage,
  UsageRecord,
} from '../../core/context-records.js';
import { InputError } from '../../core/errors.js';
import { StoreNotFoundError } from '../../core/store-errors.js';
import type { NewTurnEvent, StoredTurnEvent, TurnEventFilter } from '../../core/turn-event-log.js';
import { type CompactionRow, compactionOf, USAGE_LIMIT, type UsageRow } from '../context-tables.js';
import { iso, requireText, sqlAfter, sqlLimit } from '../rows.js';
import { checked, DEFAULT_LIMIT, type TurnEventRow, toRecord } from '../turn-events-table.js';
import type { PgContext } from './pg-context.js';
import type { PgConversation } from './pg-conversation.js';

/** Turn events (numbered per session in commit order) and the long-session records, on Postgres. */
export function pgTurnEvents(ctx: PgContext, talk: PgConversation) {
  return {
    async lastTurnEventId(sessionId: string, before?: number): Promise<number> {
      const below =
        before === undefined ? Number.MAX_SAFE_INTEGER : sqlAfter(before, 'The event id to look below');
      const row = await ctx.get<{ last: number | null }>(
        'SELECT max(id) AS last FROM turn_events WHERE session_id = ? AND id < ?',
        [requireText(sessionId, 'The session'), below],
      );
      return row?.last ?? 0;
    },
    async appendTurnEvents(events: readonly NewTurnEvent[]): Promise<StoredTurnEvent[]> {
      if (!Array.isArray(events)) throw new InputError('Turn events must be given as a list.');
      const rows = events.map(checked);
      if (rows.length === 0) return [];
      const now = ctx.now();
      return ctx.write(async () => {
        const sessions = new Map<string, string | undefined>();
        const locked = new Set<string>();
        const out: StoredTurnEvent[] = [];
        for (const row of rows) {
          if (!sessions.has(row.turnId)) {
            const found = await ctx.get<{ session_id: string }>('SELECT session_id FROM turns WHERE id = ?', [
              row.turnId,
            ]);
            sessions.set(row.turnId, found?.session_id);
          }
          const owner = sessions.get(row.turnId);
          if (owner === undefined) throw new StoreNotFoundError('turn', row.turnId);
          if (owner !== row.sessionId) {
            throw new InputError(`Turn ${row.turnId} belongs to session ${owner}, not ${row.sessionId}.`);
          }
          // Ids of one session follow commit order, so a stream replaying after the last id it saw misses none.
          if (!locked.has(owner)) {
            await talk.lockSession(owner);
            locked.add(owner);
          }
          const inserted = await ctx.get<{ id: number }>(
            `INSERT INTO turn_events (session_id, turn_id, type, data, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
            [row.sessionId, row.turnId, row.type, JSON.stringify(row.data), now],
          );
          out.push({ ...row, id: (inserted as { id: number }).id, createdAt: iso(now) });
        }
        return out;
      });
    },
    async listTurnEvents(filter: TurnEventFilter): Promise<StoredTurnEvent[]> {
      const after = sqlAfter(filter.after, 'The event id to list after');
      const limit = sqlLimit(filter.limit ?? DEFAULT_LIMIT);
      const { sessionId, turnId } = filter;
      let rows: TurnEventRow[];
      if (turnId !== undefined && sessionId !== undefined)
        rows = await ctx.all(
          'SELECT * FROM turn_events WHERE turn_id = ? AND session_id = ? AND id > ? ORDER BY id LIMIT ?',
          [requireText(turnId, 'The turn'), requireText(sessionId, 'The session'), after, limit],
        );
      else if (turnId !== undefined)
        rows = await ctx.all('SELECT * FROM turn_events WHERE turn_id = ? AND id > ? ORDER BY id LIMIT ?', [
          requireText(turnId, 'The turn'),
          after,
          limit,
        ]);
      else if (sessionId !== undefined)
        rows = await ctx.all(
          'SELECT * FROM turn_events WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?',
          [requireText(sessionId, 'The session'), after, limit],
        );
      else throw new InputError('Listing turn events needs a session id or a turn id.');
      return rows.map(toRecord);
    },

    async keepFullResult(input: Omit<FullResult, 'createdAt'>): Promise<void> {
      requireText(input.id, 'The result id');
      await ctx.run(
        `INSERT INTO full_results (id, session_id, turn_id, call_id, tool, content, created_at)
         VALUES (@id, @sessionId, @turnId, @callId, @tool, @content, @now)`,
        {
          id: input.id,
          sessionId: input.sessionId,
          turnId: input.turnId,
          callId: input.callId,
          tool: input.tool,
          content: input.content,
          now: ctx.now(),
        },
      );
    },
    async getFullResult(id: string): Promise<FullResult | undefined> {
      const row = await ctx.get<Record<string, string | number>>('SELECT * FROM full_results WHERE id = ?', [
        requireText(id, 'The result id'),
      ]);
      if (row === undefined) return undefined;
      return {
        id: String(row['id']),
        sessionId: String(row['session_id']),
        turnId: String(row['turn_id']),
        callId: String(row['call_id']),
        tool: String(row['tool']),
        content: String(row['content']),
        createdAt: iso(Number(row['created_at'])),
      };
    },
    async addCompaction(input: NewCompaction): Promise<CompactionRecord> {
      requireText(input.sessionId, 'The session');
      const row = await ctx.get<CompactionRow>(
        `INSERT INTO compactions (session_id, turn_id, through_seq, summary, messages_covered, tokens_before,
           tokens_after, reason, created_at)
         VALUES (@sessionId, @turnId, @throughSeq, @summary, @messagesCovered, @tokensBefore, @tokensAfter, @reason, @now)
         RETURNING *`,
        {
          sessionId: input.sessionId,
          turnId: input.turnId,
          throughSeq: input.throughSeq,
          summary: input.summary,
          messagesCovered: input.messagesCovered,
          tokensBefore: input.tokensBefore,
          tokensAfter: input.tokensAfter,
          reason: input.reason,
          now: ctx.now(),
        },
      );
      return compactionOf(row as CompactionRow);
    },
    async listCompactions(sessionId: string): Promise<CompactionRecord[]> {
      const rows = await ctx.all<CompactionRow>(
        'SELECT * FROM compactions WHERE session_id = ? ORDER BY id',
        [requireText(sessionId, 'The session')],
      );
      return rows.map(compactionOf);
    },
    async recordUsage(input: NewUsage): Promise<void> {
      requireText(input.sessionId, 'The session');
      await ctx.run(
        `INSERT INTO model_usage (session_id, turn_id, input_tokens, output_tokens, request_chars, created_at)
         VALUES (@sessionId, @turnId, @inputTokens, @outputTokens, @requestChars, @now)`,
        {
          sessionId: input.sessionId,
          turnId: input.turnId,
          inputTokens: input.inputTokens,
          outputTokens: input.outputTokens,
          requestChars: input.requestChars,
          now: ctx.now(),
        },
      );
    },
    async listUsage(sessionId: string): Promise<UsageRecord[]> {
      const rows = await ctx.all<UsageRow>(
        'SELECT * FROM (SELECT * FROM model_usage WHERE session_id = ? ORDER BY id DESC LIMIT ?) newest ORDER BY id',
        [requireText(sessionId, 'The session'), USAGE_LIMIT],
      );
      return rows.map((row) => ({
        sessionId: row.session_id,
        turnId: row.turn_id,
        inputTokens: row.input_tokens,
        outputTokens: row.output_tokens,
        requestChars: row.request_chars,
        createdAt: iso(row.created_at),
      }));
    },
  };
}
