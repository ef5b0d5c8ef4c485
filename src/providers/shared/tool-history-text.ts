import type { AssistantToolCall, ChatMessage } from '../../core/model.js';

/**
 * An earlier tool result told as text, for a request that offers no tools: Converse and the Messages API
 * refuse tool blocks in such a request, and the model still needs to know what the tool answered.
 */
export function toolResultText(message: Extract<ChatMessage, { role: 'tool' }>): string {
  const outcome = message.isError ? 'failed' : 'answered';
  const content = message.content === '' ? '(no output)' : message.content;
  return `(The tool ${message.name || message.toolCallId} ${outcome}: ${content})`;
}

/** An earlier tool call told as text (see `toolResultText`). */
export function toolCallText(call: AssistantToolCall): string {
  return `(Called the tool ${call.name} with ${call.arguments || '{}'})`;
}
