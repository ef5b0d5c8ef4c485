import type { ApprovalRequest } from './approval.js';
import type { GrantScope } from './grant-scope.js';
import type { JsonObject } from './json.js';
import type { ChatMessage } from './model.js';
import type { NotRunReason, RefusedBy } from './tool.js';

// Every time is an ISO-8601 text (UTC); every optional field is absent (or undefined) when unknown.

/** One conversation with its standing state. */
export interface SessionRecord {
  readonly id: string;
  /** "" until set; the first user message names a session that has none. */
  readonly title: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly agent?: string | undefined;
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  /** Real names of the tools that ran in this session, in first-use order (sticky for selection). */
  readonly toolsUsed: readonly string[];
  /** The user the session belongs to; absent: the host's owner (and every session of a one-person host). */
  readonly userId?: string | undefined;
}

/** A person a host serves (`toolseam users`); sessions of theirs carry their id. */
export interface UserRecord {
  readonly id: string;
  readonly name: string;
  /** The hash of their token (the token itself is shown once, when made, and kept nowhere). */
  readonly tokenHash: string;
  readonly createdAt: string;
  /** Set once revoked: the token no longer lets them in; their sessions are kept. */
  readonly revokedAt?: string | undefined;
}

/** A session as a list shows it: with where it stands among subagent batches. */
export interface ListedSession extends SessionRecord {
  /** The session whose subagent batch ran this one as a leaf; absent for a session a person started. */
  readonly parentSessionId?: string | undefined;
  /** How many child sessions this session's subagent batches ran. */
  readonly childSessions: number;
}

/**
 * Where a stored turn stands; `done`, `failed`, `stopped` and `interrupted` are final (a turn that ended
 * `rejected` or at a `limit` is stored as `failed` or `done`, with the reason in `error`).
 */
export type TurnState = 'running' | 'waiting_approval' | 'done' | 'failed' | 'stopped' | 'interrupted';

/** The states a turn never leaves. */
export const FINAL_TURN_STATES: readonly TurnState[] = ['done', 'failed', 'stopped', 'interrupted'];

/** One user message and everything the runtime did about it. */
export interface TurnRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly status: TurnState;
  readonly userText: string;
  readonly startedAt: string;
  readonly endedAt?: string | undefined;
  /** Who runs the turn (the runtime's choice, e.g. `host:pid`), to tell a live turn from an orphan. */
  readonly owner?: string | undefined;
  /** When the owner last marked the turn alive (see `touchTurnOwner`); absent for a turn without one. */
  readonly ownerSeenAt?: string | undefined;
  /** Why a failed, stopped or interrupted turn ended. */
  readonly error?: string | undefined;
  /** The agent the turn runs as (absent: none). */
  readonly agent?: string | undefined;
  /** The task mode asked for the turn (absent: the agent's or the default). */
  readonly mode?: string | undefined;
  /** The provider and model the turn runs on (absent for turns stored before migration 12). */
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  /** The base URL the model is reached at, when known. */
  readonly baseURL?: string | undefined;
  /** The configuration the turn runs with (absent for turns stored before migration 15, or not told). */
  readonly ranWith?: TurnConfig | undefined;
}

/**
 * The configuration a turn runs with, so a later command (`toolseam approve`, `resume`) from another
 * folder goes on with the same tools instead of whatever its own folder holds.
 */
export interface TurnConfig {
  /** The config file's absolute path; absent when the turn ran with none. */
  readonly file?: string | undefined;
  /** SHA-256 (hex) of the config file's text when the runtime read it, to tell that it changed since. */
  readonly sha256?: string | undefined;
  /** The folder the process ran in: a default workspace, and the folder MCP servers and relative paths start from. */
  readonly workdir: string;
}

/** True when an approval's deadline has passed (it can no longer be answered); false when it has none. */
export function isPastDeadline(
  approval: { readonly expiresAt?: string | undefined },
  now = Date.now(),
): boolean {
  return approval.expiresAt !== undefined && Date.parse(approval.expiresAt) <= now;
}

/** A message of the conversation as stored, in session order. */
export interface StoredMessage {
  /** Position in the whole store; increases with every message appended. */
  readonly seq: number;
  readonly sessionId: string;
  readonly turnId: string;
  readonly createdAt: string;
  readonly message: ChatMessage;
  /** For a tool result: the real name of the tool (the message itself carries the wire name). */
  readonly tool?: string | undefined;
}

/**
 * Where a call stands: `pending` (waiting for a decision) → `approved` → `running` (claimed, exactly once)
 * → `done`; or `refused` (a gate or a person said no) / `failed` (could not run, or ran and was lost).
 */
export type ToolCallStatus = 'pending' | 'approved' | 'running' | 'done' | 'refused' | 'failed';

/** One call the model asked for, keyed by its turn and its call id. */
export interface ToolCallRecord {
  readonly id: string;
  readonly turnId: string;
  readonly sessionId: string;
  /** Order of the call within its turn (0-based). */
  readonly index: number;
  /** The real tool name (the name the model sent when the tool is unknown). */
  readonly tool: string;
  /** The name the model used on the wire. */
  readonly wireName: string;
  /** The arguments as the model sent them (a recovered code fence or double encoding kept as the plain object). */
  readonly rawArguments: string;
  /** The arguments as read (decoded); absent when they could not be read. */
  readonly arguments?: JsonObject | undefined;
  /** The runtime's digest of tool + arguments; approvals of this call carry it. */
  readonly digest: string;
  readonly status: ToolCallStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Who claimed the run. */
  readonly claimedBy?: string | undefined;
  /** The text the model read, once settled. */
  readonly result?: string | undefined;
  readonly isError?: boolean | undefined;
  readonly notRun?: NotRunReason | undefined;
  readonly refusedBy?: RefusedBy | undefined;
}

/** Where an approval stands; everything but `pending` is final. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'cancelled';

/** How far an approval reaches: this call only, every call of the tool in the session, or for good. */
export type ApprovalScope = 'once' | 'session' | 'forever';

/** A question put to a person about one exact call: the request as hosts see it, and its answer. */
export interface ApprovalRecord extends ApprovalRequest {
  readonly status: ApprovalStatus;
  /** Set when approved. */
  readonly scope?: ApprovalScope | undefined;
  /** The person's reason for a denial, or why it expired or was cancelled. */
  readonly reason?: string | undefined;
  /** Who answered (e.g. `cli`, a host's user). */
  readonly answeredBy?: string | undefined;
  readonly createdAt: string;
  readonly answeredAt?: string | undefined;
  /** When the asker gives up waiting. */
  readonly expiresAt?: string | undefined;
}

/** Who withdrew a standing permission: a person, or the upgrade that withdrew every unscoped one. */
export type GrantRevoker = 'person' | 'upgrade';

/** A standing permission to run some calls of a tool without asking. */
export interface GrantRecord {
  readonly id: string;
  /** Absent for a grant that holds in every session. */
  readonly sessionId?: string | undefined;
  /** The real tool name. */
  readonly tool: string;
  /**
   * Which calls of the tool it covers. Absent only for a grant stored by a toolseam from before grants
   * were scoped: it covered every call of the tool, and the upgrade withdrew it.
   */
  readonly scope?: GrantScope | undefined;
  /** The approval that created it, when one did. */
  readonly approvalId?: string | undefined;
  readonly createdAt: string;
  /** Set once it no longer holds. */
  readonly revokedAt?: string | undefined;
  readonly revokedBy?: GrantRevoker | undefined;
  /** Why it was withdrawn, in words for a person. */
  readonly revokedReason?: string | undefined;
  /** When a question first told the person why a grant the upgrade withdrew no longer answers for them. */
  readonly noticedAt?: string | undefined;
}

/** One line of the audit trail. */
export interface AuditRecord {
  readonly id: number;
  readonly kind: string;
  readonly sessionId?: string | undefined;
  readonly turnId?: string | undefined;
  readonly detail: JsonObject;
  readonly createdAt: string;
}

/** Something the assistant was asked to remember. */
export interface MemoryRecord {
  readonly id: string;
  readonly text: string;
  readonly tags: readonly string[];
  /** The session it was saved from. */
  readonly sessionId?: string | undefined;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Where a task stands. */
export type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

/** A to-do item kept for the person. */
export interface TaskRecord {
  readonly id: string;
  readonly title: string;
  /** "" when none. */
  readonly detail: string;
  readonly status: TaskStatus;
  readonly sessionId?: string | undefined;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Where a subagent batch stands; `running` is the only unfinished status. */
export type BatchStatus = 'running' | 'done' | 'failed';

/** Where one leaf stands; `queued` and `running` are unfinished. */
export type LeafStatus = 'queued' | 'running' | 'done' | 'failed' | 'timed_out';

/** One leaf of a batch: a child session doing one explicit piece of work. */
export interface LeafRecord {
  readonly id: string;
  readonly batchId: string;
  /** Position in the batch (0-based). */
  readonly index: number;
  readonly title: string;
  /** The compiled contract (task, objective, output format, boundary, writes, …). */
  readonly contract: JsonObject;
  readonly agent?: string | undefined;
  readonly status: LeafStatus;
  readonly output?: string | undefined;
  readonly errors: readonly string[];
  readonly childSessionId?: string | undefined;
  readonly startedAt?: string | undefined;
  readonly endedAt?: string | undefined;
}

/** A fan-out started by one `subagent_run` call. */
export interface BatchRecord {
  readonly id: string;
  readonly parentSessionId: string;
  readonly turnId?: string | undefined;
  readonly callId?: string | undefined;
  readonly title: string;
  readonly status: BatchStatus;
  readonly createdAt: string;
  readonly endedAt?: string | undefined;
  /** In batch order. */
  readonly leaves: readonly LeafRecord[];
}

/**
 * A tool left out for one provider and model because the provider refused the definition toolseam
 * sent for it, until a person lifts that (`toolseam tools --on NAME`).
 */
export interface QuarantineRecord {
  readonly provider: string;
  readonly model: string;
  /** The tool's real name. */
  readonly tool: string;
  /** What the provider said, in one bounded line ('' when it said nothing). */
  readonly said: string;
  /** Where it was refused (absent once that session or turn is gone). */
  readonly sessionId?: string | undefined;
  readonly turnId?: string | undefined;
  readonly createdAt: string;
}

/** A person's on/off switch of one tool, as last flipped (the config's fixed policy still wins over it). */
export interface ToolSwitchRecord {
  /** The tool's real name. */
  readonly tool: string;
  readonly on: boolean;
  /** Rises with every flip across the store: read the switches after the last `seq` seen to catch up. */
  readonly seq: number;
  readonly changedAt: string;
  readonly changedBy?: string | undefined;
}
