import type { SessionStore } from '../../core/session-store.js';
import { headOf } from '../../core/text-cut.js';
import { META_TOOL_NAMES } from '../tool-surface.js';

/** Most calls named one by one; the rest are counted. */
const MAX_NAMED = 8;
/** Longest the arguments of one named call are shown. */
const ARGUMENT_CHARS = 80;

/**
 * One line naming the tool calls a leaf's session ran to the end without an error, for a leaf that
 * ended without an answer: what they changed stays changed, and the parent must not take that work
 * for undone. Undefined when it ran none.
 */
export function ranCallsLine(store: SessionStore, sessionId: string): string | undefined {
  const ran = store
    .listToolCalls({ sessionId, status: 'done' })
    .filter((c) => c.isError !== true && !META_TOOL_NAMES.has(c.tool));
  if (ran.length === 0) return undefined;
  const named = ran.slice(0, MAX_NAMED).map((c) => `${c.tool} ${argumentsText(c.arguments ?? {})}`);
  if (ran.length > MAX_NAMED) named.push(`and ${ran.length - MAX_NAMED} more`);
  return `calls that already ran before it ended (what they changed stays changed): ${named.join('; ')}`;
}

function argumentsText(args: object): string {
  const text = JSON.stringify(args);
  return text.length <= ARGUMENT_CHARS ? text : `${headOf(text, ARGUMENT_CHARS - 1)}…`;
}
