import type { ApprovalDecision } from './approval.js';
import type {
  AutomationClaim,
  AutomationPatch,
  AutomationRecord,
  AutomationRunEnd,
  NewAutomation,
} from './automation-records.js';
import type { ContextBook } from './context-records.js';
import type { ChatMessage } from './model.js';
import type {
  NewOutboxMessage,
  OutboxClaim,
  OutboxOutcome,
  OutboxRecord,
  OutboxStatus,
} from './outbox-records.js';
import type {
  AnswerOptions,
  ApprovalFilter,
  AuditFilter,
  BatchEnd,
  BatchFilter,
  DeleteSessionOptions,
  GrantFilter,
  LeafResult,
  MemoryFilter,
  MessagePage,
  ModelReply,
  NewApproval,
  NewAuditEvent,
  NewBatch,
  NewGrant,
  NewMemory,
  NewQuarantine,
  NewSession,
  NewTask,
  NewToolSwitch,
  NewTurn,
  NewUser,
  QuarantineFilter,
  SessionFilter,
  SessionPatch,
  TaskFilter,
  TaskPatch,
  ToolCallFilter,
  ToolCallOutcome,
  ToolSwitchFilter,
  TurnFilter,
  TurnMove,
} from './session-inputs.js';
import type {
  ApprovalRecord,
  AuditRecord,
  BatchRecord,
  GrantRecord,
  LeafRecord,
  ListedSession,
  MemoryRecord,
  QuarantineRecord,
  SessionRecord,
  StoredMessage,
  TaskRecord,
  ToolCallRecord,
  ToolSwitchRecord,
  TurnRecord,
  TurnState,
  UserRecord,
} from './session-records.js';
import type { TurnEventLog } from './turn-event-log.js';

export type * from './automation-records.js';
export type * from './outbox-records.js';
export type * from './session-inputs.js';
export type * from './session-records.js';
export type * from './turn-event-log.js';

// Every method is asynchronous, so a store may sit across a network; each changing method is one
// transaction of its own (none is held open across the caller's awaits), and a call made after another
// was awaited sees its work. Errors reject the promise (store-errors.ts): StoreNotFoundError,
// StoreConflictError, ApprovalMismatchError, ApprovalClosedError; InputError for malformed input.

/** Sessions, turns and the conversation. */
export interface SessionLog {
  createSession(input?: NewSession): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  /** Most recently used first; each with its parent session (a subagent leaf's) and its child count. */
  listSessions(filter?: SessionFilter): Promise<ListedSession[]>;
  updateSession(id: string, patch: SessionPatch): Promise<SessionRecord>;
  /** Adds real tool names to the session's sticky used-tools set (a tool that runs is added for you). */
  addToolsUsed(sessionId: string, tools: readonly string[]): Promise<void>;
  /**
   * Deletes a session with its child sessions (its subagent leaves ran in), their turns, messages, tool
   * calls, approvals (pending ones cancelled first) and the grants scoped to them, in one transaction;
   * the audit trail, memories and tasks outlive it. Returns the ids deleted, [] when there is no such
   * session. Rejects with StoreConflictError, deleting nothing, while one of their turns is unfinished
   * and not in `options.abandonedTurns`.
   */
  deleteSession(id: string, options?: DeleteSessionOptions): Promise<string[]>;

  /** Opens a `running` turn and appends the user's message with it (an untitled session is named after it). */
  startTurn(input: NewTurn): Promise<TurnRecord>;
  getTurn(id: string): Promise<TurnRecord | undefined>;
  /** Oldest first; e.g. `{ status: ['running', 'waiting_approval'] }` after a restart. */
  listTurns(filter?: TurnFilter): Promise<TurnRecord[]>;
  /**
   * Moves a turn to `state` when it is in one of `move.from`; returns false, changing nothing, when it is
   * not. A final state sets `endedAt` and cancels the turn's pending approvals. Compare-and-set: two
   * processes resuming one turn cannot both win.
   */
  setTurnStatus(turnId: string, state: TurnState, move?: TurnMove): Promise<boolean>;
  /** Marks `owner` alive now on every unfinished turn it runs (its heartbeat); returns how many. */
  touchTurnOwner(owner: string): Promise<number>;

  /** Appends any message to a turn (tool results normally go through `recordToolResult`). */
  appendMessage(
    turnId: string,
    message: ChatMessage,
    options?: { readonly tool?: string },
  ): Promise<StoredMessage>;
  /**
   * In conversation order. Messages are only appended, each with a `seq` above every one already
   * stored (whichever connection wrote it), so the page after the last `seq` seen holds exactly what
   * was added since: a runtime keeps the conversation and reads only that page before each request.
   */
  listMessages(sessionId: string, page?: MessagePage): Promise<StoredMessage[]>;
}

/** Tool calls and their exactly-once run. */
export interface ToolCallLog {
  /** Appends the assistant message and records its calls (pending unless said otherwise), atomically. */
  recordModelReply(
    turnId: string,
    reply: ModelReply,
  ): Promise<{ readonly message: StoredMessage; readonly calls: ToolCallRecord[] }>;
  getToolCall(turnId: string, callId: string): Promise<ToolCallRecord | undefined>;
  /** In turn order. */
  listToolCalls(filter: ToolCallFilter): Promise<ToolCallRecord[]>;
  /** pending → approved (a grant or the policy answered); false when the call was not pending. */
  approveToolCall(turnId: string, callId: string): Promise<boolean>;
  /**
   * approved → running (with `approving`, pending → running too: the caller's gates and policy have
   * just let it run, so it is approved and claimed in one write). Exactly one caller, in any process,
   * ever gets true for a call: run it only then.
   */
  claimToolCall(
    turnId: string,
    callId: string,
    owner?: string,
    options?: { readonly approving?: boolean },
  ): Promise<boolean>;
  /**
   * Settles a call and appends its tool-result message (wire name, real name, isError) in one transaction;
   * a `done` call joins the session's used tools. Rejects with StoreConflictError when the call's status
   * does not allow the outcome (e.g. it is already settled).
   */
  recordToolResult(
    turnId: string,
    callId: string,
    outcome: ToolCallOutcome,
  ): Promise<{ readonly call: ToolCallRecord; readonly message: StoredMessage }>;
}

/** Questions put to people; answers may come from another process. */
export interface ApprovalBook {
  /** Records a pending approval for a pending call and marks its turn `waiting_approval`, atomically. */
  requestApproval(input: NewApproval): Promise<ApprovalRecord>;
  /** One primary-key read: cheap enough to poll while waiting. */
  getApproval(id: string): Promise<ApprovalRecord | undefined>;
  /** Oldest first. */
  listApprovals(filter?: ApprovalFilter): Promise<ApprovalRecord[]>;
  /**
   * Answers a pending approval. Approving also moves its call pending → approved and, with `always`,
   * adds the grant — all in one transaction. The turn is left for its runner to resume.
   */
  answerApproval(id: string, decision: ApprovalDecision, options?: AnswerOptions): Promise<ApprovalRecord>;
  /** pending → expired / cancelled; false when it was no longer pending (re-read it: it was answered). */
  closeApproval(id: string, status: 'expired' | 'cancelled', reason?: string): Promise<boolean>;
}

/** Standing permissions, each scoped to what the person saw when they answered "always". */
export interface GrantBook {
  /** Idempotent: granting what an active grant already grants (same tool, session and scope) returns it. */
  addGrant(input: NewGrant): Promise<GrantRecord>;
  getGrant(id: string): Promise<GrantRecord | undefined>;
  /** Oldest first; by default the active grants of every session and, with `sessionId`, that session's. */
  listGrants(filter?: GrantFilter): Promise<GrantRecord[]>;
  /** Withdraws a grant, keeping its record and why; false when it was already withdrawn. */
  revokeGrant(id: string, reason?: string): Promise<boolean>;
  /** Marks grants the upgrade withdrew as explained to the person (a question said why it is asked again). */
  markGrantsNoticed(ids: readonly string[]): Promise<void>;
}

/** The audit trail. */
export interface AuditLog {
  audit(input: NewAuditEvent): Promise<AuditRecord>;
  /** Oldest first; with `limit`, the newest `limit` events (still oldest first). */
  listAudit(filter?: AuditFilter): Promise<AuditRecord[]>;
}

/** Tools left out for a provider and model that refused their definitions. */
export interface QuarantineBook {
  /** Quarantines `tools` for the provider and model; one already there keeps its place and takes the newer words. */
  quarantineTools(input: NewQuarantine): Promise<QuarantineRecord[]>;
  /** Oldest first. */
  listQuarantined(filter?: QuarantineFilter): Promise<QuarantineRecord[]>;
  /** Lifts the quarantines the filter matches (those of a tool on every model, say); returns what was lifted. */
  liftQuarantine(filter: QuarantineFilter): Promise<QuarantineRecord[]>;
}

/** A person's on/off switches of tools, shared by every process on the store. */
export interface ToolSwitchBook {
  /** Stores a tool's switch (replacing its last one) with a `seq` above every switch already stored, and audits it. */
  setToolSwitch(input: NewToolSwitch): Promise<ToolSwitchRecord>;
  /** In `seq` order; with `afterSeq`, only the switches flipped since (one index seek when none was). */
  listToolSwitches(filter?: ToolSwitchFilter): Promise<ToolSwitchRecord[]>;
}

/** Notifications written before they are sent, so a crash or a restart loses none. */
export interface OutboxBook {
  /**
   * Writes a `pending` message, due now; with `claim`, already claimed by its writer for its first
   * attempt (one write instead of two), so no other process takes it while it is sent.
   */
  enqueueOutbox(
    input: NewOutboxMessage,
    claim?: Pick<OutboxClaim, 'owner' | 'leaseMs'>,
  ): Promise<OutboxRecord>;
  /**
   * Claims due `pending` messages no live claim holds (oldest due first) and counts an attempt on each;
   * two processes never hold one message at once. A claim whose lease ran out (its process died) is taken over.
   */
  claimOutbox(claim: OutboxClaim): Promise<OutboxRecord[]>;
  /** Records how an attempt ended; false, changing nothing, when `owner` no longer holds the claim. */
  settleOutbox(id: string, owner: string, outcome: OutboxOutcome): Promise<boolean>;
  getOutbox(id: string): Promise<OutboxRecord | undefined>;
  /** Oldest first; with `status`, only those. */
  listOutbox(filter?: { readonly status?: OutboxStatus | undefined }): Promise<OutboxRecord[]>;
}

/** Memories for the built-in memory tools. */
export interface MemoryBook {
  /** Saving text already remembered refreshes it (and merges tags) instead of duplicating it. */
  saveMemory(input: NewMemory): Promise<MemoryRecord>;
  /** Best matches first: any word of `query` (as a word prefix) in the text or the tags. */
  recallMemories(query: string, options?: MemoryFilter): Promise<MemoryRecord[]>;
  /** Most recently saved first. */
  listMemories(options?: MemoryFilter): Promise<MemoryRecord[]>;
  forgetMemory(id: string): Promise<boolean>;
}

/** Tasks for the built-in task tools. */
export interface TaskBook {
  createTask(input: NewTask): Promise<TaskRecord>;
  getTask(id: string): Promise<TaskRecord | undefined>;
  /** Oldest first. */
  listTasks(filter?: TaskFilter): Promise<TaskRecord[]>;
  updateTask(id: string, patch: TaskPatch): Promise<TaskRecord>;
}

/** Subagent batches and their leaves, kept across a crash. */
export interface BatchBook {
  /** Creates a `running` batch with its leaves `queued`, atomically. */
  createBatch(input: NewBatch): Promise<BatchRecord>;
  getBatch(id: string): Promise<BatchRecord | undefined>;
  /** Oldest first. */
  listBatches(filter?: BatchFilter): Promise<BatchRecord[]>;
  /** queued → running with its child session; exactly one caller gets true. */
  claimLeaf(leafId: string, childSessionId: string): Promise<boolean>;
  /** running → queued (resuming after a crash); false when the leaf was not running. */
  requeueLeaf(leafId: string): Promise<boolean>;
  /** queued / running → a final status; rejects with StoreConflictError when already final. */
  finishLeaf(leafId: string, result: LeafResult): Promise<LeafRecord>;
  /** running → done / failed; false when already finished. */
  finishBatch(id: string, status: BatchEnd): Promise<boolean>;
}

/** Automations: prompts run unattended on a schedule, each occurrence claimed by one process only. */
export interface AutomationBook {
  /** Rejects a name already taken (InputError). */
  createAutomation(input: NewAutomation): Promise<AutomationRecord>;
  /** By id or by name. */
  getAutomation(idOrName: string): Promise<AutomationRecord | undefined>;
  /** By name. */
  listAutomations(): Promise<AutomationRecord[]>;
  /** The enabled automations whose next run is at or before `now` (epoch ms), soonest first. */
  listDueAutomations(now: number): Promise<AutomationRecord[]>;
  /** Rejects with StoreNotFoundError when there is none by that id or name. */
  updateAutomation(idOrName: string, patch: AutomationPatch): Promise<AutomationRecord>;
  deleteAutomation(idOrName: string): Promise<boolean>;
  /**
   * Takes one occurrence and moves the next run on, in one statement that holds only while the stored
   * next run still equals `scheduledFor`: exactly one caller, in any process, gets true for it.
   */
  claimAutomationRun(claim: AutomationClaim): Promise<boolean>;
  /** Records how a claimed run ended; false when the claim is no longer the automation's last. */
  finishAutomationRun(claim: AutomationClaim, end: AutomationRunEnd): Promise<boolean>;
}

/**
 * The people a host serves, each with a token of their own, kept only as its hash. A user is revoked,
 * never deleted: their sessions keep their id. A session's owner is given at `createSession`
 * (`userId`); a subagent leaf's child session takes its parent session's owner when `claimLeaf` ties
 * it to the leaf.
 */
export interface UserBook {
  /** Adds a user; refuses (InputError) a malformed or taken name or id, or a hash that is not 64 hex digits. */
  createUser(input: NewUser): Promise<UserRecord>;
  /** A user by id or name, revoked ones too. */
  getUser(idOrName: string): Promise<UserRecord | undefined>;
  /** Every user, oldest first, revoked ones too. */
  listUsers(): Promise<UserRecord[]>;
  /** Revokes a user by id or name; false when there is none or they were already revoked. */
  revokeUser(idOrName: string): Promise<boolean>;
}

/**
 * Everything the runtime keeps durably. Implementations (in `src/store/`: `openSessionStore`, SQLite;
 * `openPostgresStore` in `postgres/`; `openStore` picks one from a `db` setting) each run the contract
 * suite in `test/store/session-store.contract.ts`.
 */
export interface SessionStore
  extends SessionLog,
    ToolCallLog,
    ApprovalBook,
    GrantBook,
    AutomationBook,
    AuditLog,
    QuarantineBook,
    ToolSwitchBook,
    OutboxBook,
    MemoryBook,
    TaskBook,
    BatchBook,
    TurnEventLog,
    ContextBook,
    UserBook {
  /** The database file (`:memory:` for a store held in memory), or a PostgreSQL URL without its password. */
  readonly path: string;
  /** Ends the store's connection; no method may be called after. */
  close(): Promise<void>;
}
