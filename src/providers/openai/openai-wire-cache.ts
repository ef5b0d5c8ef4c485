import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ChatMessage, WireTool } from '../../core/model.js';
import { toOpenAIMessage } from './openai-message.js';
import { toOpenAITool } from './openai-tool.js';

/** A message or a tool in Chat Completions form. */
type Param = ChatCompletionMessageParam | ChatCompletionTool;

/** One wire form, what it was made from, and its JSON once asked for. */
interface Entry<P extends Param> {
  /** Every value (call ids as they travelled) the wire form was made from. */
  readonly made: readonly unknown[];
  readonly param: P;
  /** `,` and the form's JSON, in UTF-8. */
  listed?: Buffer;
}

/** The values of `message` its wire form depends on, call ids as `idOf` sends them. */
function madeFrom(message: ChatMessage, idOf: (id: string) => string): unknown[] {
  switch (message.role) {
    case 'user':
      return [message.role, message.content];
    case 'tool':
      return [message.role, message.content, idOf(message.toolCallId)];
    case 'assistant': {
      const made: unknown[] = [message.role, message.content];
      for (const call of message.toolCalls ?? [])
        made.push(idOf(call.id), call.name, call.arguments, call.signature);
      return made;
    }
  }
}

/** True when `message` still holds the values `made` lists (compared in place: this runs per message per request). */
function stillMadeFrom(
  made: readonly unknown[],
  message: ChatMessage,
  idOf: (id: string) => string,
): boolean {
  if (made[0] !== message.role || made[1] !== message.content) return false;
  if (message.role === 'user') return made.length === 2;
  if (message.role === 'tool') return made.length === 3 && made[2] === idOf(message.toolCallId);
  const calls = message.toolCalls ?? [];
  if (made.length !== 2 + 4 * calls.length) return false;
  let at = 2;
  for (const call of calls) {
    if (made[at] !== idOf(call.id) || made[at + 1] !== call.name) return false;
    if (made[at + 2] !== call.arguments || made[at + 3] !== call.signature) return false;
    at += 4;
  }
  return true;
}

/**
 * The Chat Completions form of each history message and offered tool, made once and reused by later
 * requests, with its JSON as UTF-8 bytes: a long session's requests would otherwise convert and
 * serialize the whole conversation again each time, and every request its tools. Entries are keyed by
 * the message or tool object, so they live only as long as what holds it (a session's history let go,
 * a message compacted away, a tool withdrawn), and each is checked against the object's values before
 * it is used: a message changed in place, or a call id that travels differently in this request
 * (Mistral's short ids depend on the whole history), is made again. A tool is checked by its name,
 * description and parameters object (a schema is never changed in place once offered).
 */
export class OpenAIWireCache {
  private readonly byMessage = new WeakMap<ChatMessage, Entry<ChatCompletionMessageParam>>();
  private readonly byTool = new WeakMap<WireTool, Entry<ChatCompletionTool>>();
  private readonly byParam = new WeakMap<Param, Entry<Param>>();

  /** The wire form of `message`, the kept one when it was made from the values the message holds now. */
  message(message: ChatMessage, idOf: (id: string) => string): ChatCompletionMessageParam {
    const kept = this.byMessage.get(message);
    if (kept !== undefined && stillMadeFrom(kept.made, message, idOf)) return kept.param;
    const entry = { made: madeFrom(message, idOf), param: toOpenAIMessage(message, idOf) };
    this.byMessage.set(message, entry);
    this.byParam.set(entry.param, entry);
    return entry.param;
  }

  /** The wire form of `tool`, the kept one while the tool's name, description and parameters are the same. */
  tool(tool: WireTool): ChatCompletionTool {
    const kept = this.byTool.get(tool);
    const [name, description, parameters] = kept?.made ?? [];
    if (kept && name === tool.name && description === tool.description && parameters === tool.parameters)
      return kept.param;
    const entry = { made: [tool.name, tool.description, tool.parameters], param: toOpenAITool(tool) };
    this.byTool.set(tool, entry);
    this.byParam.set(entry.param, entry);
    return entry.param;
  }

  /**
   * `,` and `param`'s JSON in UTF-8 (the separator comes with it, so a list is one part per item):
   * kept for the forms this cache made, which nobody changes; any other (the system message, a note
   * put between messages) is encoded each time.
   */
  listed(param: Param): Buffer {
    const entry = this.byParam.get(param);
    if (entry?.listed !== undefined) return entry.listed;
    const bytes = Buffer.from(`,${JSON.stringify(param)}`);
    if (entry !== undefined) entry.listed = bytes;
    return bytes;
  }
}
