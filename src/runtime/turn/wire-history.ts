import type { ChatMessage } from '../../core/model.js';
import { wholeText } from '../../core/text-cut.js';
import { WIRE_NAME_PATTERN, wireName } from '../../seam/index.js';
import type { ToolSurface } from '../surface/tool-surface.js';

/**
 * The name a tool call travels under in a request: an offered tool's wire name (its real name may hold
 * `/` or `.`, which Bedrock and Gemini refuse), a name already fit for the wire as it is, else the
 * model-safe form of the name (a tool no longer offered, or one the model made up).
 */
export function travelName(surface: ToolSurface, name: string): string {
  const offered = surface.byName.get(name)?.wireName;
  if (offered !== undefined) return offered;
  return name === '' || WIRE_NAME_PATTERN.test(name) ? name : wireName(name);
}

/**
 * The conversation as a request carries it: every tool call's and tool result's name is one the
 * provider takes and the one the model was offered the tool under (stored messages may hold real
 * names: calls recorded by an older toolseam, or messages a host appended), and no text holds half of
 * a character (a tool's output or a host's message cut inside an emoji would make Anthropic refuse
 * every later request of the session).
 */
export function wireHistory(messages: readonly ChatMessage[], surface: ToolSurface): ChatMessage[] {
  return messages.map((message) => {
    const content = wholeText(message.content);
    if (message.role === 'tool') {
      const name = travelName(surface, message.name);
      return name === message.name && content === message.content ? message : { ...message, name, content };
    }
    if (message.role === 'user') return content === message.content ? message : { ...message, content };
    const calls = message.toolCalls;
    const sameCalls =
      calls === undefined ||
      calls.every((c) => travelName(surface, c.name) === c.name && wholeText(c.arguments) === c.arguments);
    if (sameCalls && content === message.content) return message;
    if (sameCalls || calls === undefined) return { ...message, content };
    return {
      ...message,
      content,
      toolCalls: calls.map((c) => ({
        ...c,
        name: travelName(surface, c.name),
        arguments: wholeText(c.arguments),
      })),
    };
  });
}
