import type { Message } from './api-types.js';
import type { ChatEntry, ToolCallEntry } from './chat-entry.js';
import type { AnchoredNotice, Refusal } from './chat-state.js';

/**
 * A session's stored history as chat entries: each assistant message's tool calls joined with their
 * results (and, for calls seen refused, why), and the notices kept from ended turns placed after the
 * messages they followed.
 */
export function historyEntries(
  messages: readonly Message[],
  anchored: readonly AnchoredNotice[],
  refusals: Readonly<Record<string, Refusal>> = {},
): ChatEntry[] {
  const out: ChatEntry[] = [];
  const calls = new Map<string, number>();
  const placeUpTo = (at: number) => {
    for (const a of anchored) if (a.at === at) out.push(a.entry);
  };
  messages.forEach((m, i) => {
    placeUpTo(i);
    const key = `h${i}`;
    if (m.role === 'tool') {
      const at = m.callId === undefined ? undefined : calls.get(m.callId);
      const call = at === undefined ? undefined : out[at];
      const refusal = m.callId === undefined ? undefined : refusals[m.callId];
      const state = refusal ? 'refused' : m.isError ? 'failed' : 'done';
      const ended = { state, content: m.text, ...refusal } as const;
      if (call?.kind === 'tool' && at !== undefined) out[at] = { ...call, ...ended };
      else
        out.push({
          ...toolEntry(key, m.callId ?? key, m.tool ?? 'tool', undefined, state, m.text),
          ...ended,
        });
      return;
    }
    if (m.text !== '') out.push({ kind: 'text', key, turnId: '', role: m.role, text: m.text });
    for (const c of m.toolCalls ?? []) {
      calls.set(c.callId, out.length);
      out.push(toolEntry(`${key}:${c.callId}`, c.callId, c.tool, c.arguments, 'done', undefined));
    }
  });
  for (const a of anchored) if (a.at >= messages.length) out.push(a.entry);
  return out;
}

function toolEntry(
  key: string,
  callId: string,
  tool: string,
  args: unknown,
  state: ToolCallEntry['state'],
  content: string | undefined,
): ToolCallEntry {
  return {
    kind: 'tool',
    key,
    turnId: '',
    callId,
    tool,
    arguments: args,
    state,
    ...(content === undefined ? {} : { content }),
  };
}
