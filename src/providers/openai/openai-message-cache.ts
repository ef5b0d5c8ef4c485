import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../../core/model.js';

/** One message in Chat Completions form, and what it was made from. */
interface Entry {
  /** Every value of the message (and every call id as it travels) the wire form was made from. */
  readonly made: readonly unknown[];
  readonly param: ChatCompletionMessageParam;
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

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The Chat Completions form of each history message, made once and reused by later requests, with its
 * JSON text as UTF-8 bytes: a long session's requests would otherwise convert and serialize the whole
 * conversation again each time. Entries are keyed by the message object, so they live only as long
 * as the history holding it (a session let go, a message compacted away), and each is checked against
 * the message's values before it is used: a message changed in place, or a call id that travels
 * differently in this request (Mistral's short ids depend on the whole history), is made again.
 */
export class OpenAIMessageCache {
  private readonly entries = new WeakMap<ChatMessage, Entry>();
  /** The forms this cache made, and the JSON bytes of those encoded so far. */
  private readonly made = new WeakSet<ChatCompletionMessageParam>();
  private readonly encoded = new WeakMap<ChatCompletionMessageParam, Uint8Array>();

  /** The wire form of `message`, made by `make` unless the kept one was made from the same values. */
  param(
    message: ChatMessage,
    idOf: (id: string) => string,
    make: () => ChatCompletionMessageParam,
  ): ChatCompletionMessageParam {
    const made = madeFrom(message, idOf);
    const kept = this.entries.get(message);
    if (kept !== undefined && sameValues(kept.made, made)) return kept.param;
    const param = make();
    this.entries.set(message, { made, param });
    this.made.add(param);
    return param;
  }

  /**
   * `param` as JSON in UTF-8, kept for the message forms this cache made (the caller never changes
   * them); any other (the system message, a note put between messages) is encoded each time.
   */
  bytes(param: ChatCompletionMessageParam): Uint8Array {
    const kept = this.encoded.get(param);
    if (kept !== undefined) return kept;
    const bytes = Buffer.from(JSON.stringify(param));
    if (this.made.has(param)) this.encoded.set(param, bytes);
    return bytes;
  }
}
