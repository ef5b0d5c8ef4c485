import type { Message } from './api-types.js';

/**
 * The turns a session's history holds whole when it is opened: every turn its messages name, except
 * the newest while the session runs a turn (its events show it as it goes on).
 */
export function settledTurns(messages: readonly Message[], running: boolean): string[] {
  const turns = [...new Set(messages.map((m) => m.turnId).filter((t): t is string => typeof t === 'string'))];
  return running ? turns.slice(0, -1) : turns;
}

/** The history without what a turn still streaming shows itself (its person's message stays). */
export function withoutLiveTurns(messages: readonly Message[], live: ReadonlySet<string>): Message[] {
  return messages.filter((m) => m.role === 'user' || typeof m.turnId !== 'string' || !live.has(m.turnId));
}
