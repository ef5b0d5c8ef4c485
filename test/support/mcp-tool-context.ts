import type { ToolContext } from '../../src/core/tool.js';

/** A per-call context for tests: a fresh turn, stoppable through `signal`. */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { sessionId: 'session-1', callId: 'call-1', signal, turnState: new Map() };
}
