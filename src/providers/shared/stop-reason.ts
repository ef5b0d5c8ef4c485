import type { ModelEvent, StopReason, Usage } from '../../core/model.js';

/** A family's raw stop values and what each means. */
export type StopTable = Readonly<Record<string, StopReason>>;

/**
 * Maps a raw stop value through `table`. A turn that produced tool calls is a tool-use stop whatever it
 * says ended it when it says it simply stopped (Gemini's compatible endpoint ends tool turns with `stop`).
 * No value reads as a plain end: only whole answers get here without one (a non-streamed body, or a
 * stream the server closed with its own terminator such as `[DONE]`); a stream that simply stopped
 * fails in `streamEnding` instead.
 */
export function mapStopReason(raw: string | undefined, table: StopTable, hadToolCalls: boolean): StopReason {
  const mapped = raw === undefined ? undefined : table[raw];
  if (hadToolCalls && (mapped === undefined || mapped === 'end_turn')) return 'tool_use';
  return mapped ?? (raw === undefined || raw === '' ? 'end_turn' : 'other');
}

/** The closing event of a model call. */
export function finishEvent(
  raw: string | undefined,
  table: StopTable,
  hadToolCalls: boolean,
  usage: Usage | undefined,
): ModelEvent {
  const event = {
    type: 'finish' as const,
    stopReason: mapStopReason(raw, table, hadToolCalls),
    rawStopReason: raw ?? '',
  };
  return usage ? { ...event, usage } : event;
}
