import type { ModelAdapter, ModelRequest, Usage } from '../../core/model.js';
import type { StoredMessage } from '../../core/session-records.js';
import { headOf } from '../../core/text-cut.js';

/** The instructions of the summary request (its own, not the conversation's system prompt). */
export const SUMMARY_SYSTEM = [
  'You condense the earlier part of a conversation between a person and an assistant that uses tools.',
  'Write a summary the assistant can continue from without the original messages: what the person wants',
  'and has decided, facts and figures learned (names, paths, ids, numbers), what each tool call did and',
  'found, what is finished and what is still open. Keep it factual and compact; no greeting, no advice.',
].join(' ');

/** Bounds of one summary request. */
export interface SummaryBounds {
  /** Characters of conversation the request may carry at most. */
  readonly inputChars: number;
  /** Tokens the summary may take. */
  readonly maxTokens: number;
}

function roleLine(stored: StoredMessage): string {
  const m = stored.message;
  if (m.role === 'user') return `Person: ${m.content}`;
  if (m.role === 'tool')
    return `Result of ${stored.tool ?? m.name}${m.isError ? ' (failed)' : ''}: ${m.content}`;
  const calls = (m.toolCalls ?? []).map((c) => `[called ${c.name} with ${c.arguments}]`);
  return `Assistant: ${[m.content, ...calls].filter((part) => part !== '').join(' ')}`;
}

/** A line cut to `limit` characters, keeping its start and its end (where outcomes usually are). */
function bounded(line: string, limit: number): string {
  if (line.length <= limit) return line;
  const head = Math.floor(limit * 0.6);
  return `${headOf(line, head)} […] ${line.slice(line.length - (limit - head - 7))}`;
}

/**
 * The transcript a summary request carries, at most `inputChars` long: the previous summary, then each
 * message as one line, each cut to an even share of the room; when even that is too little, the oldest
 * lines are left out and counted.
 */
export function summaryTranscript(
  previous: string | undefined,
  older: readonly StoredMessage[],
  inputChars: number,
): string {
  const head = previous === undefined ? '' : `Summary of what came before:\n${previous}\n\nThen:\n`;
  const room = Math.max(0, inputChars - head.length);
  const share = Math.max(240, Math.floor(room / Math.max(1, older.length)));
  const lines = older.map((stored) => bounded(roleLine(stored), share));
  let total = lines.reduce((sum, line) => sum + line.length + 1, 0);
  let dropped = 0;
  while (total > room && dropped < lines.length) {
    total -= (lines[dropped] as string).length + 1;
    dropped += 1;
  }
  const note = dropped === 0 ? '' : `[${dropped} older messages left out]\n`;
  return `${head}${note}${lines.slice(dropped).join('\n')}`;
}

/** The summary request: its own instructions, the transcript as one user message, no tools, a bounded answer. */
export function summaryRequest(
  transcript: string,
  bounds: SummaryBounds,
  signal?: AbortSignal,
): ModelRequest {
  return {
    system: SUMMARY_SYSTEM,
    messages: [{ role: 'user', content: `Summarize this conversation so far:\n\n${transcript}` }],
    tools: [],
    maxTokens: bounds.maxTokens,
    ...(signal ? { signal } : {}),
  };
}

/**
 * A summary written without the model (its call failed): the person's requests, in order, each cut
 * short; better than losing the thread, and said to be what it is.
 */
export function fallbackSummary(
  previous: string | undefined,
  older: readonly StoredMessage[],
  limit: number,
): string {
  const asks = older.flatMap((s) =>
    s.message.role === 'user' ? [`- ${bounded(s.message.content, 200)}`] : [],
  );
  const text = [previous ?? '', 'Earlier requests of the person (a summary could not be written):', ...asks]
    .filter((line) => line !== '')
    .join('\n');
  return bounded(text, limit);
}

/** Runs the summary request: the text the model wrote ('' when it wrote none) and the provider's token counts. */
export async function writeSummary(
  model: ModelAdapter,
  request: ModelRequest,
): Promise<{ readonly text: string; readonly usage: Usage | undefined }> {
  let text = '';
  let usage: Usage | undefined;
  for await (const event of model.stream(request)) {
    if (event.type === 'text-delta') text += event.text;
    else if (event.type === 'finish') usage = event.usage;
  }
  return { text: text.trim(), usage };
}
