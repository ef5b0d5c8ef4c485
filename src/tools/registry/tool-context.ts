import type { ToolContext } from '../../core/tool.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A ToolContext for calling tools outside a turn (tests, scripts); every field can be overridden. */
export function makeToolContext(overrides: Partial<Writable<ToolContext>> = {}): ToolContext {
  return {
    sessionId: 'local',
    callId: 'call-1',
    signal: new AbortController().signal,
    turnState: new Map(),
    ...overrides,
  };
}
