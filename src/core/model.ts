import type { JsonSchema } from './json.js';

/** A tool as it travels to a model: wire name, non-empty description, portable parameters. */
export interface WireTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

/** A tool call inside an assistant message. `arguments` is JSON text. */
export interface AssistantToolCall {
  readonly id: string;
  /** The wire name the model used. */
  readonly name: string;
  readonly arguments: string;
  /**
   * An opaque token the provider gave with the call and wants back with it in later requests
   * (Gemini 3's thought signature); absent for most providers.
   */
  readonly signature?: string;
}

/** One message of a conversation, provider-neutral. */
export type ChatMessage =
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly AssistantToolCall[];
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      /** The wire name of the tool called. */
      readonly name: string;
      readonly content: string;
      readonly isError: boolean;
    };

/** A request to a model, provider-neutral. */
export interface ModelRequest {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly WireTool[];
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
}

/** Why the model stopped. */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'content_filter'
  | 'other';

/** Token counts as the provider reports them; `inputTokens` is every prompt token, those served from or written to a prompt cache included. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A model call's attempt that failed in passing: toolseam waits `waitMs`, then makes attempt `attempt`. */
export interface ModelRetry {
  readonly provider: string;
  /** The HTTP status the attempt was answered with; absent for a lost connection or a timeout. */
  readonly status?: number;
  /** What went wrong, in a few words (`rate limited`, `overloaded`, `the connection was lost`). */
  readonly reason: string;
  /** The attempt about to be made, counting the first as 1. */
  readonly attempt: number;
  /** Most attempts this call will make. */
  readonly maxAttempts: number;
  /** How long toolseam waits before that attempt (the provider's retry-after when it gave one). */
  readonly waitMs: number;
}

/**
 * What a streaming model call yields. Errors are thrown as `ProviderError`; a `retry` comes only before
 * anything else, when an attempt failed in passing and another follows after a wait.
 */
export type ModelEvent =
  | ({ readonly type: 'retry' } & ModelRetry)
  | { readonly type: 'text-delta'; readonly text: string }
  | {
      readonly type: 'tool-call';
      readonly id: string;
      readonly name: string;
      readonly arguments: string;
      /** See `AssistantToolCall.signature`. */
      readonly signature?: string;
    }
  | {
      readonly type: 'finish';
      readonly stopReason: StopReason;
      /** The provider's own stop value, for logs. */
      readonly rawStopReason: string;
      readonly usage?: Usage;
    };

/** A model behind one wire family (OpenAI-compatible, Anthropic, Bedrock). */
export interface ModelAdapter {
  /** Provider name for messages and logs (e.g. `openai`, `openrouter`, `anthropic`, `bedrock`). */
  readonly provider: string;
  readonly model: string;
  /**
   * Most tools one request may carry (OpenAI refuses more than 128); left out when the provider
   * documents no limit, and the runtime then keeps to the smallest known one.
   */
  readonly maxTools?: number;
  /** Streams one model call; throws `ProviderError` on failure. */
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
  /** The wire names of the tools in `sent` that a rejection points at ([] when it is not about a tool). */
  toolsNamedInRejection(error: unknown, sent: readonly WireTool[]): string[];
  /**
   * The wire names a rejection points at by the provider's own evidence: the tool's name, a property it
   * declares, its place in the request in the provider's own path form ([] when only a loose mention,
   * or nothing, points at them). Only such tools are quarantined and the request sent once more without
   * them; an adapter without this method never has a tool left out for it.
   */
  toolsAttributedInRejection?(error: unknown, sent: readonly WireTool[]): string[];
}
