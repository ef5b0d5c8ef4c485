import type { ChatMessage } from '../../core/model.js';

/**
 * The conversation with each reply's tool results in the order the model made its calls. The store
 * keeps them in the order they settled (calls run side by side end in any order), and some providers
 * pair results with calls by position (Gemini), or read them that way.
 */
export function resultsInCallOrder(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let at = 0;
  while (at < messages.length) {
    const message = messages[at] as ChatMessage;
    out.push(message);
    at += 1;
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    const results: ChatMessage[] = [];
    while (at < messages.length && messages[at]?.role === 'tool') results.push(messages[at++] as ChatMessage);
    // Most replies make one call: nothing to order (this runs over the whole history on every request).
    if (results.length < 2) {
      out.push(...results);
      continue;
    }
    const order = new Map(message.toolCalls.map((call, i) => [call.id, i]));
    const place = (m: ChatMessage): number =>
      (m.role === 'tool' ? order.get(m.toolCallId) : undefined) ?? order.size;
    // A stable sort: results of the same place (none, or a call id given twice) keep their order.
    out.push(...results.sort((a, b) => place(a) - place(b)));
  }
  return out;
}
