/** A call of a tool as the chat shows it: running, done, failed or refused. */
export interface ToolCallEntry {
  readonly kind: 'tool';
  readonly key: string;
  readonly turnId: string;
  readonly callId: string;
  readonly tool: string;
  readonly arguments: unknown;
  readonly state: 'running' | 'done' | 'failed' | 'refused';
  /** What the tool returned (or, for a refusal, what the model was told). */
  readonly content?: string;
  /** Why the runtime refused the call, in words for a person. */
  readonly reason?: string;
  readonly refusedBy?: string;
}

/** Text someone wrote: the person or the model. */
export interface TextEntry {
  readonly kind: 'text';
  readonly key: string;
  readonly turnId: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

/** A line from the runtime: a notice, a retry, how a turn ended when it did not end well. */
export interface NoticeEntry {
  readonly kind: 'notice';
  readonly key: string;
  readonly turnId: string;
  readonly tone: 'info' | 'error';
  readonly text: string;
  /** Kept after the turn is read back from the history, which does not hold it. */
  readonly keep: boolean;
}

/** One item of the chat. */
export type ChatEntry = ToolCallEntry | TextEntry | NoticeEntry;
