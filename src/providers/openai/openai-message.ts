import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../../core/model.js';

/** One history message in Chat Completions form, its call ids as `idOf` sends them. */
export function toOpenAIMessage(
  message: ChatMessage,
  idOf: (id: string) => string,
): ChatCompletionMessageParam {
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
