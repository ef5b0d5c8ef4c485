import { isPlainObject } from '../core/json.js';
import { jsonTextOf } from '../core/json-text-of.js';
import type { ChatMessage } from '../core/model.js';

/** What one content block of a block-based wire (Anthropic, Bedrock) carries. */
export interface BlockReading {
  readonly text?: string;
  readonly call?: { readonly id: string; readonly name: string; readonly input: unknown };
  readonly result?: { readonly id: string; readonly content: string; readonly isError: boolean };
}

/**
 * A block-based conversation, provider-neutral: assistant turns keep their text and tool calls, user
 * turns become their tool results (named after the call they answer) followed by their text.
 */
export function blockMessages(
  list: unknown[],
  read: (block: Record<string, unknown>) => BlockReading,
): ChatMessage[] {
  const out: ChatMessage[] = [];
  const names = new Map<string, string>();
  for (const m of list) {
    if (!isPlainObject(m)) continue;
    const raw = m['content'];
    const blocks =
      typeof raw === 'string'
        ? [{ type: 'text', text: raw }]
        : Array.isArray(raw)
          ? raw.filter(isPlainObject)
          : [];
    const readings = blocks.map(read);
    const text = readings.map((r) => r.text ?? '').join('');
    if (m['role'] === 'assistant') {
      const toolCalls = readings.flatMap((r) =>
        r.call ? [{ id: r.call.id, name: r.call.name, arguments: jsonTextOf(r.call.input ?? {}) }] : [],
      );
      for (const call of toolCalls) names.set(call.id, call.name);
      out.push({ role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) });
      continue;
    }
    for (const { result } of readings) {
      if (!result) continue;
      const name = names.get(result.id) ?? '';
      out.push({
        role: 'tool',
        toolCallId: result.id,
        name,
        content: result.content,
        isError: result.isError,
      });
    }
    if (text !== '' || blocks.length === 0) out.push({ role: 'user', content: text });
  }
  return out;
}
