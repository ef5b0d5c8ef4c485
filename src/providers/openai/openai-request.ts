import type {
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ModelRequest } from '../../core/model.js';
import { isSettled } from '../../core/settled-message.js';
import { toOpenAIMessage } from './openai-message.js';
import { toOpenAITool } from './openai-tool.js';
import type { OpenAIWireCache } from './openai-wire-cache.js';
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

/** How the history's tool-call ids travel: as they are, or (`short`) as Mistral takes them. */
function callIdsFor(history: readonly ChatMessage[], short: boolean): (id: string) => string {
  return short ? shortCallIds(history) : (id) => id;
}

function isBlankReply(message: ChatMessage): boolean {
  return message.role === 'assistant' && message.content.trim() === '' && !message.toolCalls?.length;
}

/**
 * A provider-neutral request in Chat Completions form. With a `cache`, each history message and tool is
 * converted once and its form reused by later requests (see `OpenAIWireCache`).
 */
export function toOpenAIRequest(
  request: ModelRequest,
  options: OpenAIRequestOptions,
  cache?: OpenAIWireCache,
): ChatCompletionCreateParams {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system !== '')
    messages.push(
      cache === undefined ? { role: 'system', content: request.system } : cache.systemMessage(request.system),
    );
  const history = request.messages;
  const short = options.shortCallIds === true;
  const idOf = callIdsFor(history, short);
  // The head a request of this conversation already mapped, settled since, is taken as it was.
  const notes = options.assistantAfterToolResults;
  const heads = short ? undefined : cache;
  const head = heads?.headOf(history, notes);
  const first = messages.length;
  if (head !== undefined) for (const form of head.forms) messages.push(form);
  let previous = head?.previous;
  // How far the history is settled from its start, and where its forms ended then.
  let settled = head?.messages.length ?? 0;
  let settledForms = messages.length;
  let settledPrevious = previous;
  for (let i = settled; i < history.length; i += 1) {
    const message = history[i] as ChatMessage;
    // a stored reply with nothing in it: Mistral refuses it, and the other families drop it too
    if (!isBlankReply(message)) {
      if (notes && previous === 'tool' && message.role === 'user') {
        messages.push({ role: 'assistant', content: UNANSWERED_RESULTS_NOTE });
      }
      messages.push(cache === undefined ? toOpenAIMessage(message, idOf) : cache.message(message, idOf));
      previous = message.role;
    }
    if (settled === i && heads !== undefined && isSettled(message)) {
      settled = i + 1;
      settledForms = messages.length;
      settledPrevious = previous;
    }
  }
  if (heads !== undefined && settled > (head?.messages.length ?? 0))
    heads.keepHead({
      messages: history.slice(0, settled),
      forms: messages.slice(first, settledForms),
      previous: settledPrevious,
      notes,
    });
  const body: ChatCompletionCreateParams = { model: options.model, messages, stream: options.stream };
  if (request.tools.length > 0)
    body.tools = cache === undefined ? request.tools.map(toOpenAITool) : cache.tools(request.tools);
  const maxTokens = request.maxTokens ?? options.defaultMaxTokens;
  if (maxTokens !== undefined) body[options.maxTokensField] = maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (options.stream && options.streamUsage) body.stream_options = { include_usage: true };
  return body;
}
