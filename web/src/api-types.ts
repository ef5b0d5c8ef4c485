// The shapes of docs/http-api.md, as the page reads them. The page imports nothing from src/: these
// are written from the contract, and every field a server might leave out is optional.

/** A chat session (`Session`). */
export interface Session {
  readonly id: string;
  readonly title: string;
  readonly agent?: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly running: boolean;
}

/** `GET /api/sessions/{id}`. */
export interface SessionDetail {
  readonly session: Session;
  readonly messages: readonly Message[];
  /** The newest event of the session's finished turns: the stream starts after it (absent: from the start). */
  readonly lastEventId?: string | null;
}

/** One tool call an assistant message asked for. */
export interface MessageToolCall {
  readonly callId: string;
  readonly tool: string;
  readonly arguments: unknown;
}

/** A stored message of a session's history (`Message`). */
export interface Message {
  /** The turn that wrote it (absent on messages stored before turns were kept). */
  readonly turnId?: string | null;
  readonly role: 'user' | 'assistant' | 'tool';
  readonly text: string;
  readonly toolCalls?: readonly MessageToolCall[];
  readonly callId?: string;
  readonly tool?: string;
  readonly isError?: boolean | null;
  readonly createdAt: string;
}

/** What an "always" answer would let run without asking (the runtime's grant scope). */
export interface GrantScope {
  readonly kind: string;
  readonly summary: string;
  readonly narrowed?: string;
}

/** "Always" as the API's approvals carry it: the scope and the sentence for each reach. */
export interface AlwaysLines {
  readonly scope: GrantScope;
  readonly session: string;
  readonly forever: string;
}

/** A call waiting for a person's answer (`Approval`, or the `request` of an approval-request event). */
export interface Approval {
  readonly id: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly callId: string;
  readonly tool: string;
  readonly arguments: unknown;
  readonly risk: string;
  readonly meaning: string;
  readonly digest?: string;
  readonly status?: string;
  readonly createdAt: string;
  readonly leafTitle?: string | null;
  /** A stream's approval-request carries the scope; the API's approvals carry it with its sentences. */
  readonly always?: GrantScope | AlwaysLines | null;
  readonly notice?: string | null;
  /** When an unanswered question is given up (the API's approvals say; a stream's do not). */
  readonly expiresAt?: string | null;
}

/** A person's answer, as `POST /api/approvals/{id}` takes it. */
export type ApprovalAnswer = (
  | { readonly decision: 'approve'; readonly always?: 'session' | 'forever' }
  | { readonly decision: 'deny'; readonly reason?: string }
) & {
  /** The approval's digest: the answer holds only for the call the card showed. */
  readonly digest?: string;
};

/** The provider's refusal that keeps a tool out until a person lets it try again. */
export interface Quarantine {
  readonly provider: string;
  readonly model: string;
  readonly said: string;
}

/** A row of the Tools page (`ToolRow`). */
export interface ToolRow {
  readonly name: string;
  readonly wireName: string;
  readonly provider: string;
  readonly app: string;
  readonly group: string | { readonly key: string };
  readonly status: string;
  readonly why?: string;
  readonly description: string;
  readonly on: boolean;
  readonly fixed: null | 'disabledTools' | 'denyList';
  readonly quarantine: null | Quarantine;
}

/** A provider that failed to load, as the Tools page lists it. */
export interface ToolFailure {
  readonly provider: string;
  readonly app?: string;
  readonly message: string;
}

/** `GET /api/tools`. */
export interface ToolsPageData {
  readonly tools: readonly ToolRow[];
  readonly failures: readonly ToolFailure[];
}

/** The error body every 4xx/5xx carries. */
export interface ErrorBody {
  readonly error: { readonly code: string; readonly message: string };
}
