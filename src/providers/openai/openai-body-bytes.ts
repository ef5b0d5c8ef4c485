import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { OpenAIWireCache } from './openai-wire-cache.js';

/** `"key":[` and the items' bytes (each led by its `,`, the first one's left out), then `],`. */
function listBytes(key: string, items: readonly Buffer[]): Buffer[] {
  const first = items[0];
  if (first === undefined) return [Buffer.from(`"${key}":[],`)];
  return [Buffer.from(`"${key}":[`), first.subarray(1), ...items.slice(1), Buffer.from('],')];
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
  const parts = [
    Buffer.from('{'),
    ...listBytes(
      'messages',
      messages.map((m) => cache.listedMessage(m)),
    ),
  ];
  if (tools !== undefined)
    parts.push(
      ...listBytes(
        'tools',
        tools.map((t) => cache.listedTool(t)),
      ),
    );
  // `rest` always holds the model, so its JSON is `{` and at least one key
  parts.push(Buffer.from(JSON.stringify(rest).slice(1)));
  return Buffer.concat(parts);
}
