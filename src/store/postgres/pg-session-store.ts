import pg from 'pg';
import { ToolseamError } from '../../core/errors.js';
import type { TurnState } from '../../core/session-records.js';
import { FINAL_TURN_STATES } from '../../core/session-records.js';
import type { DeleteSessionOptions, SessionStore, TurnMove } from '../../core/session-store.js';
import { StoreConflictError } from '../../core/store-errors.js';
import type { VectorCache } from '../../core/vector-cache.js';
import { redactedUrl } from '../postgres-url.js';
import { FAMILY } from '../session-deletion.js';
import { pgApprovals } from './pg-approvals.js';
import { pgAudit } from './pg-audit.js';
import { pgAutomations } from './pg-automations.js';
import { pgBatches } from './pg-batches.js';
import { pgContext } from './pg-context.js';
import { pgConversation } from './pg-conversation.js';
import { pgErrorFor, pgOpenError } from './pg-errors.js';
import { pgGrants } from './pg-grants.js';
import { pgMemoriesTasks } from './pg-memories-tasks.js';
import { migratePg } from './pg-migrate.js';
import { PG_MIGRATIONS } from './pg-migrations.js';
import { pgOutbox } from './pg-outbox.js';
import { pgToolBooks } from './pg-tool-books.js';
import { pgToolCalls } from './pg-tool-calls.js';
import { pgTurnEvents } from './pg-turn-events.js';
import { pgUsers } from './pg-users.js';
import { pgVectorCache } from './pg-vector-cache.js';

/** Where and how to open the Postgres store. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (libpq's URL form; `postgresql://` too). */
  readonly url: string;
  /**
   * A schema of the database to keep the store in (created when missing); default: the URL's `schema`
   * parameter (`postgres://…/db?schema=team_a`, toolseam's own), else the connection's search path.
   */
  readonly schema?: string;
  /** The most connections the store holds open at once (default: the URL's `pool` parameter, else 10). */
  readonly maxConnections?: number;
  /** The clock, in epoch milliseconds (tests). */
  readonly now?: () => number;
}

/** The Postgres store: every `SessionStore` method, and a transaction of the caller's own. */
export interface PostgresSessionStore extends SessionStore, VectorCache {
  /**
   * Runs `work` as one transaction on one connection; the store's methods awaited inside it join it
   * (each still all-or-nothing, through a savepoint), and a throw from `work` rolls everything back.
   * Await them one at a time: the transaction is one connection, and its savepoints nest in call order.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
}

const INT8 = 20;
/** Row values as the SQLite store reads them: 64-bit integers (times, ids, counts) as numbers. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The URL without toolseam's own parameters (the driver does not know them): `schema`, the schema to
 * keep the store in, and `pool`, the most connections the store holds open.
 */
function ownParamsOfUrl(text: string, where: string): { url: string; schema?: string; pool?: number } {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch (cause) {
    throw pgOpenError(
      `${where} is not a URL toolseam can read (${(cause as Error).message}). ` +
        'Write it as postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, with any special character of the password percent-encoded.',
      where,
      cause,
    );
  }
  const schema = parsed.searchParams.get('schema');
  const poolText = parsed.searchParams.get('pool');
  if (schema === null && poolText === null) return { url: text };
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('pool');
  const pool = poolText === null ? undefined : poolSize(poolText, where);
  return {
    url: parsed.toString(),
    ...(schema === null ? {} : { schema }),
    ...(pool === undefined ? {} : { pool }),
  };
}

/** The `?pool=N` of a URL: a whole number from 1 to 100. */
function poolSize(text: string, where: string): number {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(n) || n < 1 || n > 100) {
    throw pgOpenError(
      `?pool=${text} in ${where} is not a pool size: give the most connections the store may hold open, a whole number from 1 to 100.`,
      where,
    );
  }
  return n;
}

/** Turns a synchronous throw into a rejection, and a failure of the server or the network into a store error. */
function guarded<T extends object>(api: T, where: string): T {
  const out: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(
    api as Record<string, (...args: unknown[]) => Promise<unknown>>,
  )) {
    out[key] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (error) {
        throw pgErrorFor(error, where) ?? error;
      }
    };
  }
  return out as T;
}

/**
 * Opens the session store on a PostgreSQL database: a pool of connections, migrated to the current
 * schema on open (several processes may open one database at once). Rejects with StoreOpenError naming
 * what is wrong (a bad URL, a server that cannot be reached, a failed migration) and what to do.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresSessionStore> {
  const where = redactedUrl(options.url);
  const { url, schema: named, pool: poolMax } = ownParamsOfUrl(options.url, where);
  const schema = options.schema ?? named;
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw pgOpenError(
      `The schema name ${JSON.stringify(schema)} is not a plain identifier (letters, digits, _).`,
      where,
    );
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? poolMax ?? 10,
    connectionTimeoutMillis: 10_000,
    types,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle connection the server closed is dropped by the pool; the next query opens another.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await migratePg(client, where, PG_MIGRATIONS, schema);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof ToolseamError) throw error;
    throw pgErrorFor(error, where, 'open') ?? error;
  }

  const ctx = pgContext(pool, options.now);
  const talk = pgConversation(ctx);
  const audit = pgAudit(ctx);
  const calls = pgToolCalls(ctx, talk);
  const grants = pgGrants(ctx, talk);
  const approvals = pgApprovals(ctx, talk, calls, grants, audit);
  const events = pgTurnEvents(ctx, talk);
  /** Moves a turn; a turn that ends takes its pending approvals with it. */
  const moveTurn = (turnId: string, state: TurnState, move?: TurnMove) =>
    ctx.write(async () => {
      const moved = await talk.moveTurn(turnId, state, move);
      if (moved && FINAL_TURN_STATES.includes(state))
        await approvals.cancelForTurn(turnId, `the turn ended (${state})`);
      return moved;
    });
  const deleteSession = (id: string, opts: DeleteSessionOptions = {}): Promise<string[]> =>
    ctx.write(async () => {
      const ids = (await ctx.all<{ id: string }>(FAMILY, [id])).map((r) => r.id);
      if (ids.length === 0) return [];
      const abandoned = new Set(opts.abandonedTurns ?? []);
      const open = await ctx.all<{ id: string; status: string }>(
        `SELECT id, status FROM turns WHERE session_id = ANY(?::text[]) AND status IN ('running', 'waiting_approval')
         ORDER BY n FOR UPDATE`,
        [ids],
      );
      const live = open.find((t) => !abandoned.has(t.id));
      if (live) throw new StoreConflictError('turn', live.id, live.status, 'deleted with its session');
      for (const s of ids) {
        for (const a of await approvals.list({ sessionId: s, status: 'pending' })) {
          await approvals.close(a.id, 'cancelled', 'its session was deleted');
        }
      }
      await ctx.run('DELETE FROM sessions WHERE id = ANY(?::text[])', [ids]);
      await audit.add({
        kind: 'session.deleted',
        sessionId: id,
        detail: { sessions: ids, abandonedTurns: open.map((t) => t.id) },
      });
      return ids;
    });

  const methods: Omit<SessionStore, 'path' | 'close'> = {
    createSession: talk.createSession,
    getSession: talk.getSession,
    listSessions: talk.listSessions,
    updateSession: talk.updateSession,
    addToolsUsed: talk.addToolsUsed,
    deleteSession,
    startTurn: talk.startTurn,
    getTurn: talk.getTurn,
    listTurns: talk.listTurns,
    setTurnStatus: moveTurn,
    touchTurnOwner: talk.touchTurnOwner,
    appendMessage: (turnId, message, opts) => talk.appendToTurn(turnId, message, opts?.tool),
    listMessages: talk.listMessages,

    recordModelReply: (turnId, reply) =>
      ctx.write(async () => {
        const recorded = await calls.recordModelReply(turnId, reply);
        if (reply.usage !== undefined)
          await events.recordUsage({ ...reply.usage, sessionId: recorded.message.sessionId, turnId });
        if (reply.endsTurn === true) await moveTurn(turnId, 'done');
        return recorded;
      }),
    getToolCall: calls.get,
    listToolCalls: calls.list,
    approveToolCall: calls.approve,
    claimToolCall: calls.claim,
    recordToolResult: calls.recordResult,

    requestApproval: approvals.request,
    getApproval: approvals.get,
    listApprovals: approvals.list,
    answerApproval: approvals.answer,
    closeApproval: approvals.close,

    addGrant: grants.add,
    getGrant: grants.get,
    listGrants: grants.list,
    revokeGrant: (id, reason) => grants.revoke(id, reason),
    markGrantsNoticed: grants.markNoticed,

    audit: audit.add,
    listAudit: audit.list,

    ...pgUsers(ctx),

    ...pgToolBooks(ctx, audit),
    ...pgOutbox(ctx),
    ...pgMemoriesTasks(ctx, talk),
    ...pgBatches(ctx, talk),
    ...events,
    ...pgAutomations(ctx),
  };
  let closed = false;
  return {
    ...guarded(methods, where),
    ...guarded(pgVectorCache(ctx), where),
    path: where,
    transaction: (work) => ctx.transaction(work),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
