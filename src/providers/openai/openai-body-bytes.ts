import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { OpenAIMessageCache } from './openai-message-cache.js';

const OPEN = Buffer.from('{"messages":[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('],');

/**
 * The request body as the UTF-8 JSON the endpoint reads, the messages' bytes taken from `cache` where
 * it made them: a long session's history is serialized once, not on every request. The same JSON the
 * SDK would write, with `messages` first. Sending bytes also keeps one non-Latin-1 character in the
 * system prompt from turning the whole body into a two-byte string, which costs the SDK and `fetch`
 * a second pass over it.
 */
export function openAIBodyBytes(body: ChatCompletionCreateParams, cache: OpenAIMessageCache): Buffer {
  const { messages, ...rest } = body;
  // `rest` always holds the model, so its JSON is `{…}` with at least one key after the brace
  const tail = Buffer.from(JSON.stringify(rest).slice(1));
  const parts: Uint8Array[] = [OPEN];
  messages.forEach((message, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(cache.bytes(message));
  });
  parts.push(CLOSE, tail);
  return Buffer.concat(parts);
}
