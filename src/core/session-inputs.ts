import type { ReplyUsage } from './context-records.js';
import type { GrantScope } from './grant-scope.js';
import type { JsonObject } from './json.js';
import type {
  ApprovalStatus,
  BatchStatus,
  LeafStatus,
  TaskStatus,
  ToolCallStatus,
  TurnConfig,
  TurnState,
} from './session-records.js';
import type { NotRunReason, RefusedBy, RiskLevel } from './tool.js';

// What callers hand the SessionStore. Optional fields accept `undefined` as "not given".

/** Fields of a new session; the store picks an id when none is given. */
export interface NewSession {
  readonly id?: string | undefined;
  readonly title?: string | undefined;
  readonly agent?: string | undefined;
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  /** The user the session belongs to (`UserBook`); absent: the host's owner. */
  readonly userId?: string | undefined;
}

/** Fields of a session that may change (absent = unchanged). */
export interface SessionPatch {
  readonly title?: string | undefined;
  readonly agent?: string | undefined;
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
}

/** A turn to open. */
export interface NewTurn {
  readonly sessionId: string;
  readonly userText: string;
  readonly id?: string | undefined;
  /** Who runs it (e.g. `host:pid`), so a restart can tell a live turn from an orphan. */
  readonly owner?: string | undefined;
  /** The agent the turn runs as, kept so a resumed turn is screened the same way. */
  readonly agent?: string | undefined;
  /** The task mode asked for the turn (e.g. `plan`), kept for the same reason. */
  readonly mode?: string | undefined;
  /** The model the turn runs on, kept so a resumed turn goes on with the same one. */
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  /** The base URL the model is reached at (absent: the provider's own or unknown). */
  readonly baseURL?: string | undefined;
  /** The configuration the turn runs with, kept so a resumed turn has the same tools. */
  readonly ranWith?: TurnConfig | undefined;
}

/** Which turns to list. */
export interface TurnFilter {
  readonly sessionId?: string | undefined;
  readonly status?: TurnState | readonly TurnState[] | undefined;
}

/** How a turn's state may move. */
export interface TurnMove {
  /** Move only from these states (default: `running` or `waiting_approval`). */
  readonly from?: readonly TurnState[] | undefined;
  readonly owner?: string | undefined;
  /**
   * Move only while this process (or none: `null`) owns the turn — a compare-and-swap, so of two
   * processes taking over the same turn exactly one succeeds.
   */
  readonly fromOwner?: string | null | undefined;
  readonly error?: string | undefined;
}

/** A page of rows: `limit` at most (a whole number ≥ 1). */
export interface Limit {
  readonly limit?: number | undefined;
}

/** Which sessions to list, most recently used first; `limit` counts the sessions listed. */
export interface SessionFilter extends Limit {
  /** Only the sessions a person started, leaving out the child sessions subagent leaves ran in. */
  readonly topLevel?: boolean | undefined;
  /** Only the child sessions the subagent batches of this session ran. */
  readonly parentSessionId?: string | undefined;
  /** Only this user's sessions; `null`: only the host owner's (those of no user). */
  readonly userId?: string | null | undefined;
}

/** Which messages to list: after `afterSeq`, at most `limit`. */
export interface MessagePage extends Limit {
  readonly afterSeq?: number | undefined;
}

/** A call as the model sent it, to be recorded with the assistant message that carries it. */
export interface NewToolCall {
  readonly id: string;
  readonly wireName: string;
  /** The real name (the wire name as sent when the tool is unknown). */
  readonly tool: string;
  /** As the model sent them (a recovered slip as the plain object); this text goes into the assistant message. */
  readonly rawArguments: string;
  /** The provider's token for the call, kept in the assistant message (see `AssistantToolCall.signature`). */
  readonly signature?: string | undefined;
  /** As read (decoded); omit when they could not be read. */
  readonly arguments?: JsonObject | undefined;
  /**
   * True when `arguments` is exactly what `rawArguments` reads as (`JSON.parse`): the store then keeps the
   * text alone and reads the arguments back from it, so a large argument is stored once.
   */
  readonly argumentsAsRaw?: boolean | undefined;
  /** The runtime's digest of tool + arguments (`callDigest`); approvals of the call are bound to it. */
  readonly digest: string;
  /** `approved` for a call nobody needs to be asked about; default `pending`. */
  readonly status?: 'pending' | 'approved' | undefined;
}

/** One model reply: its text and the calls it asked for. */
export interface ModelReply {
  readonly content: string;
  readonly calls?: readonly NewToolCall[] | undefined;
  /**
   * The turn's final answer (it has no calls): the turn is marked done with it, in the same
   * transaction, as `setTurnStatus(turnId, 'done')` would, so a stored answer never sits beside a turn
   * still marked running.
   */
  readonly endsTurn?: boolean | undefined;
  /**
   * The provider's token counts for the answer this reply is, kept in the same transaction as
   * `recordUsage` would keep them (one write per model request, not two).
   */
  readonly usage?: ReplyUsage | undefined;
}

/** Which calls to list. */
export interface ToolCallFilter {
  readonly turnId?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly status?: ToolCallStatus | readonly ToolCallStatus[] | undefined;
}

/** How a call ended, as the model will read it. */
export interface ToolCallOutcome {
  /** `done` only after a successful claim; `refused` before running; `failed` at any unfinished point. */
  readonly status: 'done' | 'refused' | 'failed';
  readonly content: string;
  readonly isError: boolean;
  readonly notRun?: NotRunReason | undefined;
  readonly refusedBy?: RefusedBy | undefined;
}

/** What the asker provides; the tool, arguments and digest are copied from the recorded call. */
export interface NewApproval {
  readonly id?: string | undefined;
  readonly turnId: string;
  readonly callId: string;
  readonly risk: RiskLevel;
  readonly meaning: string;
  /** Set when a subagent leaf asks: the leaf's title. */
  readonly leafTitle?: string | undefined;
  /** ISO time after which the asker stops waiting (informative: a pending approval stays answerable). */
  readonly expiresAt?: string | undefined;
  /** What answering "always" would cover (shown with the question); absent: "always" cannot be answered. */
  readonly always?: GrantScope | undefined;
  /** Something the person should know first (e.g. why a withdrawn standing permission no longer answers). */
  readonly notice?: string | undefined;
}

/** Which approvals to list. */
export interface ApprovalFilter {
  readonly status?: ApprovalStatus | readonly ApprovalStatus[] | undefined;
  readonly sessionId?: string | undefined;
  readonly turnId?: string | undefined;
  /** Only approvals of this user's sessions; `null`: only of the host owner's (those of no user). */
  readonly userId?: string | null | undefined;
}

/** A person a host serves, to add; their token is never given to the store, only its hash. */
export interface NewUser {
  /** Default: a fresh `u-…` id. */
  readonly id?: string | undefined;
  /** Unique, 1–64 of a–z, 0–9, `_` and `-`, starting with a letter or digit. */
  readonly name: string;
  /** A one-way hash of the user's token (the server's `userTokenHash`), 64 hex digits. */
  readonly tokenHash: string;
}

/** How an answer is bound and attributed. */
export interface AnswerOptions {
  /** When given, must equal the approval's digest: the answer is for the call the person saw. */
  readonly digest?: string | undefined;
  /** Who answered (e.g. `cli`, a host's user). */
  readonly answeredBy?: string | undefined;
}

/** A standing grant to add; no `sessionId` means every session. */
export interface NewGrant {
  readonly tool: string;
  /** Which calls of the tool it covers (see `GrantScope`); a grant always has one. */
  readonly scope: GrantScope;
  readonly sessionId?: string | undefined;
  readonly approvalId?: string | undefined;
}

/** Which grants to list. */
export interface GrantFilter {
  /** That session's grants and those of every session; absent: only those of every session. */
  readonly sessionId?: string | undefined;
  /** Every grant, whichever session it belongs to (`sessionId` is then ignored). */
  readonly allSessions?: boolean | undefined;
  readonly tool?: string | undefined;
  /** `active` (the default): those that hold; `revoked`: those withdrawn; `all`: both. */
  readonly status?: 'active' | 'revoked' | 'all' | undefined;
}

/** An audit event to append. */
export interface NewAuditEvent {
  readonly kind: string;
  readonly detail?: JsonObject | undefined;
  readonly sessionId?: string | undefined;
  readonly turnId?: string | undefined;
}

/** Which audit events to list; with `limit`, the newest ones. */
export interface AuditFilter extends Limit {
  readonly sessionId?: string | undefined;
  readonly turnId?: string | undefined;
  readonly kind?: string | undefined;
}

/** Something to remember. */
export interface NewMemory {
  readonly text: string;
  readonly tags?: readonly string[] | undefined;
  readonly sessionId?: string | undefined;
}

/** Which memories: those with `tag`, at most `limit`. */
export interface MemoryFilter extends Limit {
  readonly tag?: string | undefined;
}

/** A task to create (status `pending` unless given). */
export interface NewTask {
  readonly title: string;
  readonly detail?: string | undefined;
  readonly status?: TaskStatus | undefined;
  readonly sessionId?: string | undefined;
}

/** Which tasks to list. */
export interface TaskFilter {
  readonly status?: TaskStatus | readonly TaskStatus[] | undefined;
  readonly sessionId?: string | undefined;
}

/** Fields of a task that may change (absent = unchanged). */
export interface TaskPatch {
  readonly title?: string | undefined;
  readonly detail?: string | undefined;
  readonly status?: TaskStatus | undefined;
}

/** One leaf to create with its batch. */
export interface NewLeaf {
  readonly title: string;
  readonly contract: JsonObject;
  readonly agent?: string | undefined;
}

/** A batch to create, its leaves queued. */
export interface NewBatch {
  readonly id?: string | undefined;
  readonly parentSessionId: string;
  readonly turnId?: string | undefined;
  readonly callId?: string | undefined;
  readonly title?: string | undefined;
  readonly leaves: readonly NewLeaf[];
}

/** Which batches to list; `unfinished` keeps the `running` ones. */
export interface BatchFilter {
  readonly parentSessionId?: string | undefined;
  readonly unfinished?: boolean | undefined;
  /** Only the batch with a leaf whose child session this is. */
  readonly childSessionId?: string | undefined;
}

/** How a leaf ended. */
export interface LeafResult {
  readonly status: Exclude<LeafStatus, 'queued' | 'running'>;
  readonly output?: string | undefined;
  readonly errors?: readonly string[] | undefined;
}

/** How a batch ended. */
export type BatchEnd = Exclude<BatchStatus, 'running'>;

/** Tools a provider refused the definitions of, to leave out for that provider and model. */
export interface NewQuarantine {
  readonly provider: string;
  readonly model: string;
  /** Real tool names. */
  readonly tools: readonly string[];
  /** What the provider said ('' or absent when it said nothing). */
  readonly said?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly turnId?: string | undefined;
}

/** Which quarantined tools to list or lift (every one when a field is absent). */
export interface QuarantineFilter {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly tool?: string | undefined;
}

/** A person's switch of one tool, by its real name. */
export interface NewToolSwitch {
  readonly tool: string;
  readonly on: boolean;
  /** Who flipped it (e.g. `cli`, `page`), when known. */
  readonly by?: string | undefined;
}

/** Which switches to list: those flipped after `afterSeq` (every one when absent). */
export interface ToolSwitchFilter {
  readonly afterSeq?: number | undefined;
}

/** How `deleteSession` treats the session's unfinished turns. */
export interface DeleteSessionOptions {
  /**
   * Unfinished turns the caller judged abandoned (their process is gone): those are deleted with the
   * session. Any other unfinished turn of the session (or of a child session) refuses the delete.
   */
  readonly abandonedTurns?: readonly string[] | undefined;
}
