import type {
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ModelRequest, WireTool } from '../../core/model.js';
import type { OpenAIMessageCache } from './openai-message-cache.js';
import { shortCallIds } from './short-call-ids.js';

/** Wire choices that differ between OpenAI-compatible endpoints. */
export interface OpenAIRequestOptions {
  readonly model: string;
  readonly stream: boolean;
  /** Ask for a final usage chunk (`stream_options.include_usage`). */
  readonly streamUsage: boolean;
  /** OpenAI's own API wants `max_completion_tokens`; the compatible endpoints read `max_tokens`. */
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  readonly defaultMaxTokens: number | undefined;
  /**
   * Mistral refuses a user message right after a tool result (`invalid_request_message_order`): a
   * short assistant message is put between them, as happens when a turn stopped after its tools ran.
   */
  readonly assistantAfterToolResults: boolean;
  /**
   * Mistral takes only tool-call ids of exactly 9 letters and digits: other ids in the history (a
   * session that ran on another provider before) travel as 9-character ids derived from them.
   */
  readonly shortCallIds?: boolean;
}

/** What the assistant "said" between a stopped turn's tool results and the next user message. */
export const UNANSWERED_RESULTS_NOTE = '(The turn ended here, before a reply to these tool results.)';

/** One tool in Chat Completions form. */
export function toOpenAITool(tool: WireTool): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

function toOpenAIMessage(message: ChatMessage, idOf: (id: string) => string): ChatCompletionMessageParam {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      // Chat Completions has no error flag: a failure is told in the content the runtime wrote
      return { role: 'tool', tool_call_id: idOf(message.toolCallId), content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => {
          const sent = {
            id: idOf(call.id),
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          };
          // Gemini wants its thought signature back where it came from; the SDK's types lack the field
          return call.signature === undefined
            ? sent
            : { ...sent, extra_content: { google: { thought_signature: call.signature } } };
        }),
      };
    }
  }
}

/** How the history's tool-call ids travel: as they are, or (`short`) as Mistral takes them. */
function callIdsFor(history: readonly ChatMessage[], short: boolean): (id: string) => string {
  return short ? shortCallIds(history) : (id) => id;
}

function isBlankReply(message: ChatMessage): boolean {
  return message.role === 'assistant' && message.content.trim() === '' && !message.toolCalls?.length;
}

/**
 * A provider-neutral request in Chat Completions form. With a `cache`, each history message is
 * converted once and its form reused by later requests (see `OpenAIMessageCache`).
 */
export function toOpenAIRequest(
  request: ModelRequest,
  options: OpenAIRequestOptions,
  cache?: OpenAIMessageCache,
): ChatCompletionCreateParams {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  const idOf = callIdsFor(request.messages, options.shortCallIds === true);
  let previous: ChatMessage['role'] | undefined;
  for (const message of request.messages) {
    // a stored reply with nothing in it: Mistral refuses it, and the other families drop it too
    if (isBlankReply(message)) continue;
    if (options.assistantAfterToolResults && previous === 'tool' && message.role === 'user') {
      messages.push({ role: 'assistant', content: UNANSWERED_RESULTS_NOTE });
    }
    const make = () => toOpenAIMessage(message, idOf);
    messages.push(cache === undefined ? make() : cache.param(message, idOf, make));
    previous = message.role;
  }
  const body: ChatCompletionCreateParams = { model: options.model, messages, stream: options.stream };
  if (request.tools.length > 0) body.tools = request.tools.map(toOpenAITool);
  const maxTokens = request.maxTokens ?? options.defaultMaxTokens;
  if (maxTokens !== undefined) body[options.maxTokensField] = maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (options.stream && options.streamUsage) body.stream_options = { include_usage: true };
  return body;
}
