import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { OpenAIWireCache } from './openai-wire-cache.js';

const BRACE = Buffer.from('{');
const CLOSE = Buffer.from('],');
/** Each list's opening (`"key":[`) and its empty form (`"key":[],`), made once. */
const OPENINGS = {
  messages: [Buffer.from('"messages":['), Buffer.from('"messages":[],')],
  tools: [Buffer.from('"tools":['), Buffer.from('"tools":[],')],
} as const;

/** Adds `"key":[` and the items' bytes (each led by its `,`, the first one's left out), then `],` to `parts`. */
function pushList(parts: Buffer[], key: keyof typeof OPENINGS, items: readonly Buffer[]): void {
  const [open, empty] = OPENINGS[key];
  const first = items[0];
  if (first === undefined) {
    parts.push(empty);
    return;
  }
  parts.push(open, first.subarray(1));
  for (let i = 1; i < items.length; i += 1) parts.push(items[i] as Buffer);
  parts.push(CLOSE);
}

/**
 * The request body as the UTF-8 JSON the endpoint reads, each message's and tool's bytes taken from
 * `cache` where it made them: a long session's history is serialized once, not on every request. The
 * same JSON the SDK would write, with `messages` and `tools` first. Sending bytes also keeps one
 * character past Latin-1 in the system prompt or a tool's description from making the whole body a
 * two-byte string, which costs the SDK and `fetch` further passes over it.
 */
export function openAIBodyBytes(body: ChatCompletionCreateParams, cache: OpenAIWireCache): Buffer {
  const { messages, tools, ...rest } = body;
  const parts = [BRACE];
  pushList(parts, 'messages', cache.listedMessages(messages));
  if (tools !== undefined) pushList(parts, 'tools', cache.listedTools(tools));
  // `rest` always holds the model, so its JSON is `{` and at least one key
  parts.push(Buffer.from(JSON.stringify(rest).slice(1)));
  return Buffer.concat(parts);
}
