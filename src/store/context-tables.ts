import type {
  CompactionRecord,
  FullResult,
  NewCompaction,
  NewUsage,
  UsageRecord,
} from '../core/context-records.js';
import { iso, requireText } from './rows.js';
import type { StoreContext } from './store-context.js';

export interface CompactionRow {
  id: number;
  session_id: string;
  turn_id: string;
  through_seq: number;
  summary: string;
  messages_covered: number;
  tokens_before: number;
  tokens_after: number;
  reason: string;
  created_at: number;
}

export interface UsageRow {
  session_id: string;
  turn_id: string;
  input_tokens: number;
  output_tokens: number;
  request_chars: number;
  created_at: number;
}

export function compactionOf(row: CompactionRow): CompactionRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    throughSeq: row.through_seq,
    summary: row.summary,
    messagesCovered: row.messages_covered,
    tokensBefore: row.tokens_before,
    tokensAfter: row.tokens_after,
    reason: row.reason === 'overflow' ? 'overflow' : 'threshold',
    createdAt: iso(row.created_at),
  };
}

/** A usage row as a record. */
export function usageRecordOf(row: UsageRow): UsageRecord {
  return {
    sessionId: row.session_id,
    turnId: row.turn_id,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    requestChars: row.request_chars,
    createdAt: iso(row.created_at),
  };
}

/** How many usage rows a list returns: the newest, enough to calibrate an estimate. */
export const USAGE_LIMIT = 200;

/** The compactions and model-usage tables of long sessions. */
export function contextTables(ctx: StoreContext) {
  const { db } = ctx;
  const insertCompaction = db.prepare(
    `INSERT INTO compactions (session_id, turn_id, through_seq, summary, messages_covered, tokens_before, tokens_after, reason, created_at)
     VALUES (@sessionId, @turnId, @throughSeq, @summary, @messagesCovered, @tokensBefore, @tokensAfter, @reason, @now)`,
  );
  const compactionById = db.prepare('SELECT * FROM compactions WHERE id = ?');
  const compactionsOf = db.prepare('SELECT * FROM compactions WHERE session_id = ? ORDER BY id');
  const insertUsage = db.prepare(
    `INSERT INTO model_usage (session_id, turn_id, input_tokens, output_tokens, request_chars, created_at)
     VALUES (@sessionId, @turnId, @inputTokens, @outputTokens, @requestChars, @now)`,
  );
  // The newest rows through the index, newest first (turned around below, not sorted again by SQLite); the
  // limit written out, as a bound LIMIT has the statement planned again on every call.
  const usageOf = db.prepare(
    `SELECT * FROM model_usage WHERE session_id = ? ORDER BY id DESC LIMIT ${USAGE_LIMIT}`,
  );
  const insertFull = db.prepare(
    `INSERT INTO full_results (id, session_id, turn_id, call_id, tool, content, created_at)
     VALUES (@id, @sessionId, @turnId, @callId, @tool, @content, @now)`,
  );
  const fullById = db.prepare('SELECT * FROM full_results WHERE id = ?');
  return {
    keepFullResult(input: Omit<FullResult, 'createdAt'>): void {
      requireText(input.id, 'The result id');
      ctx.write(() => insertFull.run({ ...input, now: ctx.now() }));
    },
    getFullResult(id: string): FullResult | undefined {
      const row = fullById.get(requireText(id, 'The result id')) as
        | Record<string, string | number>
        | undefined;
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
    addCompaction(input: NewCompaction): CompactionRecord {
      requireText(input.sessionId, 'The session');
      return ctx.write(() => {
        const { lastInsertRowid } = insertCompaction.run({ ...input, now: ctx.now() });
        return compactionOf(compactionById.get(lastInsertRowid) as CompactionRow);
      });
    },
    listCompactions(sessionId: string): CompactionRecord[] {
      return (compactionsOf.all(requireText(sessionId, 'The session')) as CompactionRow[]).map(compactionOf);
    },
    recordUsage(input: NewUsage): void {
      requireText(input.sessionId, 'The session');
      ctx.write(() => insertUsage.run({ ...input, now: ctx.now() }));
    },
    listUsage(sessionId: string): UsageRecord[] {
      const rows = usageOf.all(requireText(sessionId, 'The session')) as UsageRow[];
      return rows.reverse().map(usageRecordOf);
    },
  };
}
