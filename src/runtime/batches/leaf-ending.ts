import type { LeafResult, SessionStore } from '../../core/session-store.js';
import { headOf } from '../../core/text-cut.js';
import { META_TOOL_NAMES } from '../surface/tool-surface.js';

/** Most calls named one by one; the rest are counted. */
const MAX_NAMED = 8;
/** Longest the arguments of one named call are shown. */
const ARGUMENT_CHARS = 80;
/** What a leaf that finished without a word of answer reports in place of its output. */
const NO_ANSWER = 'it finished without a final answer, so nothing came back in its declared format';

/**
 * How a leaf's ending is recorded: a done leaf whose answer is blank has no output and says so, and a
 * leaf without an answer (that one, or one that failed, timed out or was stopped) names the tool calls
 * of its session `sessionId` that had already run, after the reason it ended.
 */
export async function leafEnding(
  store: SessionStore,
  sessionId: string,
  result: LeafResult,
): Promise<LeafResult> {
  let ending = result;
  if (result.status === 'done' && (result.output ?? '').trim() === '') {
    const { output: _blank, ...rest } = result;
    ending = { ...rest, errors: [NO_ANSWER, ...(result.errors ?? [])] };
  }
  if (ending.output !== undefined) return ending;
  const ran = await ranCallsLine(store, sessionId);
  if (ran === undefined) return ending;
  const [why, ...rest] = ending.errors ?? [];
  return { ...ending, errors: why === undefined ? [ran] : [why, ran, ...rest] };
}

/**
 * One line naming the tool calls a session ran to the end without an error: what they changed stays
 * changed, and the parent must not take that work for undone. Undefined when it ran none.
 */
async function ranCallsLine(store: SessionStore, sessionId: string): Promise<string | undefined> {
  const ran = (await store.listToolCalls({ sessionId, status: 'done' })).filter(
    (c) => c.isError !== true && !META_TOOL_NAMES.has(c.tool),
  );
  if (ran.length === 0) return undefined;
  const named = ran.slice(0, MAX_NAMED).map((c) => `${c.tool} ${argumentsText(c.arguments ?? {})}`);
  if (ran.length > MAX_NAMED) named.push(`and ${ran.length - MAX_NAMED} more`);
  return `calls that already ran before it ended (what they changed stays changed): ${named.join('; ')}`;
}

function argumentsText(args: object): string {
  const text = JSON.stringify(args);
  return text.length <= ARGUMENT_CHARS ? text : `${headOf(text, ARGUMENT_CHARS - 1)}…`;
}
