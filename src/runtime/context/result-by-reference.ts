import { randomUUID } from 'node:crypto';
import type { FullResult } from '../../core/context-records.js';
import type { SessionStore } from '../../core/session-store.js';
import { headOf, wholeStart } from '../../core/text-cut.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import { TOOL_RESULT_READ } from './tool-result-read.js';

/**
 * The most characters of one result the runtime keeps whole for `tool_result_read`: a tool that collects
 * its output in bounded memory (`bash`) keeps this much of it, start and end, rather than the part shown.
 */
export const KEPT_RESULT_CHARS = 1_000_000;

/** Where a kept result belongs: its session, turn and call, and the tool's real name. */
export type ResultPlace = Pick<FullResult, 'sessionId' | 'turnId' | 'callId' | 'tool'>;

/** The note between the start and the end of a result kept whole. */
function referenceNote(id: string, left: number, total: number): string {
  return `\n[… ${left.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters left out here. The whole result is kept as "${id}": call ${TOOL_RESULT_READ} with id "${id}" and offset/length, line_from/line_to, or a pattern to read the rest.]\n`;
}

/**
 * A result longer than `limit` characters as the model gets it: its start and its end (a command's end
 * holds its exit status and last lines) with a note naming the id it is kept under and the tool that
 * reads it; the whole text is stored first. Undefined when it fits, or when the store cannot keep it
 * (the caller then cuts it as before).
 */
export async function keepByReference(
  store: SessionStore,
  place: ResultPlace,
  text: string,
  limit: number,
): Promise<string | undefined> {
  if (text.length <= limit) return undefined;
  const id = `result-${randomUUID().slice(0, 8)}`;
  try {
    await store.keepFullResult({ id, ...place, content: text });
  } catch {
    return undefined;
  }
  const room = limit - referenceNote(id, text.length, text.length).length;
  if (room < 3) return headOf(text, limit);
  // the end gets more room than in a plain cut: a command's outcome is there
  const head = headOf(text, Math.ceil(room / 2));
  const tailStart = wholeStart(text, text.length - (room - head.length));
  return `${head}${referenceNote(id, tailStart - head.length, text.length)}${text.slice(tailStart)}`;
}

/** True when calls of this turn can read a kept result (its runtime serves `tool_result_read`). */
export function keepsResults(env: Pick<TurnEnvironment, 'runtimeTools'>): boolean {
  return env.runtimeTools.has(TOOL_RESULT_READ);
}

/** {@link keepByReference} for a call of a turn: undefined also when the turn cannot read kept results. */
export async function resultByReference(
  env: TurnEnvironment,
  call: { readonly id: string; readonly tool: string },
  text: string,
  limit: number,
): Promise<string | undefined> {
  if (!keepsResults(env)) return undefined;
  const place = { sessionId: env.sessionId, turnId: env.turnId, callId: call.id, tool: call.tool };
  return keepByReference(env.store, place, text, limit);
}
