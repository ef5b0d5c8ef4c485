/** A compaction: the conversation up to `throughSeq` is stood in for by `summary` in later requests. */
export interface CompactionRecord {
  readonly id: number;
  readonly sessionId: string;
  /** The turn during which it was made. */
  readonly turnId: string;
  /** The last message (by `seq`) the summary covers; every message after it travels verbatim. */
  readonly throughSeq: number;
  /** What the model wrote about the older part of the conversation. */
  readonly summary: string;
  /** How many messages the summary stands in for (earlier compactions' included). */
  readonly messagesCovered: number;
  /** The request's estimated size before and after, in tokens. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** `threshold` (the next request would have passed it) or `overflow` (the provider refused the request). */
  readonly reason: 'threshold' | 'overflow';
  readonly createdAt: string;
}

/** What a new compaction record holds (the store gives the id and the time). */
export type NewCompaction = Omit<CompactionRecord, 'id' | 'createdAt'>;

/** The provider's token counts for one answer, with the size of the request it answered. */
export interface UsageRecord {
  readonly sessionId: string;
  readonly turnId: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Characters of the request (system, messages, tools) as the runtime measured it. */
  readonly requestChars: number;
  readonly createdAt: string;
}

/** What a new usage record holds (the store gives the time). */
export type NewUsage = Omit<UsageRecord, 'createdAt'>;

/** The token counts stored with the reply they came with (its turn and session are the reply's). */
export type ReplyUsage = Omit<NewUsage, 'sessionId' | 'turnId'>;

/** A tool result too long to send whole, kept whole so the model can read it in parts. */
export interface FullResult {
  readonly id: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly callId: string;
  /** The tool's real name. */
  readonly tool: string;
  readonly content: string;
  readonly createdAt: string;
}

/** What a store keeps of long sessions: compactions and the provider's token counts. */
export interface ContextBook {
  /** Keeps a compaction of a session's conversation. */
  addCompaction(input: NewCompaction): Promise<CompactionRecord>;
  /** A session's compactions, oldest first. */
  listCompactions(sessionId: string): Promise<CompactionRecord[]>;
  /** Keeps the provider's token counts of one answer. */
  recordUsage(input: NewUsage): Promise<void>;
  /** A session's most recent token counts (at most 200), oldest first. */
  listUsage(sessionId: string): Promise<UsageRecord[]>;
  /** Keeps a tool result whole (its id is the caller's). */
  keepFullResult(input: Omit<FullResult, 'createdAt'>): Promise<void>;
  /** A kept result by its id, undefined when there is none. */
  getFullResult(id: string): Promise<FullResult | undefined>;
}
