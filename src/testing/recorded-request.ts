import type { ChatMessage, WireTool } from '../core/model.js';

/** Which wire a stand-in speaks. */
export type StandInFamily = 'openai' | 'anthropic' | 'bedrock';

/** How the stand-in answered a request. */
export type RequestOutcome =
  | { readonly kind: 'answered'; readonly turn: number }
  | { readonly kind: 'rejected'; readonly status: number; readonly reason: string }
  | { readonly kind: 'error'; readonly status: number }
  | { readonly kind: 'dropped' }
  | { readonly kind: 'no-turn' };

/** The request as a family parses it, provider-neutral. */
export interface NeutralRequest {
  readonly model: string;
  readonly stream: boolean;
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly WireTool[];
}

/** The last tool result in a conversation. */
export interface LastToolResult {
  readonly toolCallId: string;
  readonly name: string;
  readonly content: string;
  readonly isError: boolean;
}

/** What a scripted turn sees of a request, whether it came over HTTP (a stand-in) or in-process. */
export interface ScriptRequest extends NeutralRequest {
  /** Text of the last user message ('' when none). */
  readonly lastUserMessage: string;
  readonly lastToolResult: LastToolResult | undefined;
}

/** Everything the stand-in saw of one request, and how it answered. */
export interface RecordedRequest extends ScriptRequest {
  readonly family: StandInFamily;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as received. */
  readonly rawBody: string;
  /** The parsed JSON body (undefined when it was not JSON). */
  readonly body: unknown;
  outcome: RequestOutcome;
}

/** The last user text and last tool result of a conversation. */
export function conversationTail(messages: readonly ChatMessage[]): {
  lastUserMessage: string;
  lastToolResult: LastToolResult | undefined;
} {
  let lastUserMessage = '';
  let lastToolResult: LastToolResult | undefined;
  for (const message of messages) {
    if (message.role === 'user') lastUserMessage = message.content;
    if (message.role === 'tool') {
      lastToolResult = {
        toolCallId: message.toolCallId,
        name: message.name,
        content: message.content,
        isError: message.isError,
      };
    }
  }
  return { lastUserMessage, lastToolResult };
}
