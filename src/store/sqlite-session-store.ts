import { FINAL_TURN_STATES } from '../core/session-records.js';
import type { SessionStore } from '../core/session-store.js';
import type { VectorCache } from '../core/vector-cache.js';
import { approvalsTable } from './approvals-table.js';
import { auditTable } from './audit-table.js';
import { automationsTable } from './automations-table.js';
import { batchesTable } from './batches-table.js';
import { contextTables } from './context-tables.js';
import { defaultDatabasePath } from './default-path.js';
import { grantsTable } from './grants-table.js';
import { memoriesTable } from './memories-table.js';
import { messagesTable } from './messages-table.js';
import { type DatabaseOptions, DEFAULT_BUSY_TIMEOUT_MS, openDatabase } from './open-database.js';
import { outboxTable } from './outbox-table.js';
import { quarantineTable } from './quarantine-table.js';
import { sessionDeletion } from './session-deletion.js';
import { sessionsTable } from './sessions-table.js';
import { guardedNow, type Synchronous, sqliteGuard } from './sqlite-guard.js';
import { storeContext } from './store-context.js';
import { tasksTable } from './tasks-table.js';
import { toolCallsTable } from './tool-calls-table.js';
import { toolSwitchesTable } from './tool-switches-table.js';
import { turnEventsTable } from './turn-events-table.js';
import { turnsTable } from './turns-table.js';
import { usersTable } from './users-table.js';
import { vectorCacheTable } from './vector-cache-table.js';
import { WalCheckpointer } from './wal-checkpointer.js';

/** Where and how to open the store. */
export interface SessionStoreOptions extends DatabaseOptions {
  /** The database file (`:memory:`: a private store that ends when closed); default `defaultDatabasePath()`. */
  readonly path?: string;
  /** The clock, in epoch milliseconds (tests). */
  readonly now?: () => number;
}

/** The SQLite store: every `SessionStore` method, the tools' vector cache, and a transaction of the caller's own. */
export interface SqliteSessionStore extends SessionStore, VectorCache {
  /**
   * Runs `work` as one transaction; any throw from it rolls everything back. SQLite only: the store's
   * methods called inside do their work at once, inside it (each still all-or-nothing), and their
   * promises settle after. `work` is synchronous (it may not return a promise), so the transaction is
   * never held across an await.
   */
  transaction<T>(work: () => T): T;
}

/**
 * Opens the durable session store: one SQLite file (WAL, busy timeout, foreign keys), migrated to the
 * current schema on open. Several processes may open the same file at once.
 */
export function openSessionStore(options: SessionStoreOptions = {}): SqliteSessionStore {
  const db = openDatabase(options.path ?? defaultDatabasePath(), options);
  const ctx = storeContext(db, options.now);
  // An in-memory database has no log to checkpoint.
  const checkpoints = db.memory ? undefined : new WalCheckpointer(db);
  if (checkpoints !== undefined) ctx.onCommit(() => checkpoints.committed());
  const sessions = sessionsTable(ctx);
  const messages = messagesTable(ctx);
  const turns = turnsTable(ctx, sessions, messages);
  const calls = toolCallsTable(ctx, sessions, turns);
  const grants = grantsTable(ctx, sessions);
  const audit = auditTable(ctx);
  const approvals = approvalsTable(ctx, turns, calls, grants, audit);
  const memories = memoriesTable(ctx, sessions);
  const tasks = tasksTable(ctx, sessions);
  const batches = batchesTable(ctx, sessions);
  const quarantine = quarantineTable(ctx);
  const switches = toolSwitchesTable(ctx, audit);
  const outbox = outboxTable(ctx);
  const deleteSession = sessionDeletion(ctx, approvals, audit);
  const turnEvents = turnEventsTable(ctx);
  const context = contextTables(ctx);
  const automations = automationsTable(ctx);
  const vectors = vectorCacheTable(ctx);
  const users = usersTable(ctx);

  const timeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  /** Moves a turn; a turn that ends takes its pending approvals with it. */
  const moveTurn: Synchronous<SessionStore>['setTurnStatus'] = (turnId, state, move) => {
    const moved = turns.setStatus(turnId, state, move);
    if (moved && FINAL_TURN_STATES.includes(state))
      approvals.cancelForTurn(turnId, `the turn ended (${state})`);
    return moved;
  };
  const methods: Synchronous<Omit<SessionStore, 'path' | 'close'>> = {
    createSession: sessions.create,
    getSession: sessions.get,
    listSessions: sessions.list,
    updateSession: sessions.update,
    addToolsUsed: sessions.addToolsUsed,
    deleteSession,
    startTurn: turns.start,
    getTurn: turns.get,
    listTurns: turns.list,
    setTurnStatus: (turnId, state, move) => ctx.write(() => moveTurn(turnId, state, move)),
    touchTurnOwner: (owner) => ctx.write(() => turns.touchOwner(owner)),
    appendMessage: (turnId, message, opts) => turns.append(turnId, message, opts?.tool),
    listMessages: messages.list,

    recordModelReply: (turnId, reply) =>
      ctx.write(() => {
        const recorded = calls.recordModelReply(turnId, reply);
        if (reply.usage !== undefined)
          context.recordUsage({ ...reply.usage, sessionId: recorded.message.sessionId, turnId });
        if (reply.endsTurn === true) moveTurn(turnId, 'done');
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

    quarantineTools: quarantine.add,
    listQuarantined: quarantine.list,
    liftQuarantine: quarantine.lift,

    setToolSwitch: switches.set,
    listToolSwitches: switches.list,

    enqueueOutbox: outbox.enqueue,
    claimOutbox: outbox.claim,
    settleOutbox: outbox.settle,
    getOutbox: outbox.get,
    listOutbox: outbox.list,

    saveMemory: memories.save,
    recallMemories: memories.recall,
    listMemories: memories.list,
    forgetMemory: memories.forget,

    createTask: tasks.create,
    getTask: tasks.get,
    listTasks: tasks.list,
    updateTask: tasks.update,

    createBatch: batches.create,
    getBatch: batches.get,
    listBatches: batches.list,
    claimLeaf: batches.claimLeaf,
    requeueLeaf: batches.requeueLeaf,
    finishLeaf: batches.finishLeaf,
    finishBatch: batches.finishBatch,

    appendTurnEvents: turnEvents.append,
    listTurnEvents: turnEvents.list,
    lastTurnEventId: turnEvents.last,

    ...context,
    createAutomation: automations.create,
    getAutomation: automations.get,
    listAutomations: automations.list,
    listDueAutomations: automations.listDue,
    updateAutomation: automations.update,
    deleteAutomation: automations.delete,
    claimAutomationRun: automations.claim,
    finishAutomationRun: automations.finish,

    createUser: users.create,
    getUser: users.get,
    listUsers: users.list,
    revokeUser: users.revoke,
  };
  return {
    ...sqliteGuard<Omit<SessionStore, 'path' | 'close'>>(methods, db.name, timeoutMs),
    ...sqliteGuard<VectorCache>(
      { readVectors: vectors.readVectors, writeVectors: vectors.writeVectors },
      db.name,
      timeoutMs,
    ),
    path: db.name,
    transaction: (work) => guardedNow(() => ctx.transaction(work), db.name, timeoutMs),
    close: async () => {
      await checkpoints?.close();
      db.close();
    },
  };
}
