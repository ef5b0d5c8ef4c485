import type {
  ContentBlockParam,
  MessageCreateParams,
  MessageParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ModelRequest, WireTool } from '../../core/model.js';
import { BLOCK_ID, blockCallIds } from '../shared/block-call-ids.js';
import { groupTurns, type WireTurn } from '../shared/group-turns.js';
import { MessageForms } from '../shared/message-forms.js';
import { argumentsObject } from '../shared/tool-call-assembler.js';
import { toolCallText, toolResultText } from '../shared/tool-history-text.js';

/** Anthropic requires `max_tokens`; this is used when neither the request nor the config sets one. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** One tool in Messages API form. */
export function toAnthropicTool(tool: WireTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters as Tool['input_schema'],
  };
}

function blocksOf(message: ChatMessage, toolsAsText: boolean, idOf: (id: string) => string): AnthropicForm {
  switch (message.role) {
    case 'user':
      return {
        role: 'user',
        // Anthropic refuses text blocks without a visible character
        blocks: message.content.trim() === '' ? [] : [{ type: 'text', text: message.content }],
      };
    case 'tool': {
      if (toolsAsText) return { role: 'user', blocks: [{ type: 'text', text: toolResultText(message) }] };
      const result: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: idOf(message.toolCallId),
        content: message.content,
      };
      if (message.isError) result.is_error = true;
      return { role: 'user', blocks: [result] };
    }
    case 'assistant': {
      const blocks: ContentBlockParam[] = [];
      // Anthropic refuses text blocks without a visible character (a stored "\n\n" would fail every later request)
      if (message.content.trim() !== '') blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) {
        if (toolsAsText) {
          blocks.push({ type: 'text', text: toolCallText(call) });
          continue;
        }
        blocks.push({
          type: 'tool_use',
          id: idOf(call.id),
          name: call.name,
          input: argumentsObject(call.arguments),
        });
      }
      return { role: 'assistant', blocks };
    }
  }
}

/** One message as a role and its content blocks. */
export type AnthropicForm = WireTurn<ContentBlockParam>;

/** Each message's blocks, kept between requests (`MessageForms`); the variant is `toolsAsText`. */
export type AnthropicForms = MessageForms<AnthropicForm, boolean>;

/** A cache of each message's blocks for the requests of one adapter. */
export function anthropicForms(): AnthropicForms {
  return new MessageForms((message, idOf, toolsAsText: boolean) => blocksOf(message, toolsAsText, idOf));
}

/** Each message as a role and its blocks (taken from `forms` when given), in order. */
export function anthropicMessageForms(
  messages: readonly ChatMessage[],
  toolsAsText: boolean,
  forms?: AnthropicForms,
): AnthropicForm[] {
  if (forms) return forms.list(messages, toolsAsText, BLOCK_ID, () => blockCallIds(messages));
  const idOf = blockCallIds(messages);
  return messages.map((m) => blocksOf(m, toolsAsText, idOf));
}

/**
 * The conversation as Messages API turns: tool results travel as `tool_result` blocks in a user turn, and
 * consecutive messages of one role share a turn (results first, as the API requires). With `toolsAsText`
 * (a request offering no tools, where the API refuses tool blocks) earlier calls and results are told as text.
 * Call ids the API refuses (`^[a-zA-Z0-9_-]+$`; another provider's, such as Kimi's) travel as ids it takes.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[], toolsAsText = false): MessageParam[] {
  return turnsOf(anthropicMessageForms(messages, toolsAsText));
}

/** The messages' forms grouped into turns. */
function turnsOf(forms: readonly AnthropicForm[]): MessageParam[] {
  return groupTurns(forms, (f) => f).map((t) => ({ role: t.role, content: t.blocks }));
}

/**
 * A provider-neutral request in Messages API form, its messages' forms (`forms`: made with
 * `anthropicMessageForms`) given when the caller keeps them.
 */
export function toAnthropicRequest(
  request: ModelRequest,
  options: { model: string; stream: boolean; defaultMaxTokens: number | undefined },
  forms: readonly AnthropicForm[] = anthropicMessageForms(request.messages, request.tools.length === 0),
): MessageCreateParams {
  const body: MessageCreateParams = {
    model: options.model,
    max_tokens: request.maxTokens ?? options.defaultMaxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: turnsOf(forms),
    stream: options.stream,
  };
  if (request.system !== '') body.system = request.system;
  if (request.tools.length > 0) body.tools = request.tools.map(toAnthropicTool);
  // `temperature` is not sent: the Messages API of this SDK version no longer takes it
  return body;
}
