import type { BatchRecord, LeafRecord, SessionStore } from '../core/session-store.js';

/** The subagent leaf whose child session is `sessionId`, with its batch; undefined for any other session. */
export function leafOfSession(
  store: SessionStore,
  sessionId: string,
): { readonly batch: BatchRecord; readonly leaf: LeafRecord } | undefined {
  for (const batch of store.listBatches()) {
    const leaf = batch.leaves.find((l) => l.childSessionId === sessionId);
    if (leaf !== undefined) return { batch, leaf };
  }
  return undefined;
}

/** The turn to resume for `turnId`: a leaf's turn resumes with its batch, through the parent's turn. */
export function turnToResume(store: SessionStore, turnId: string): string {
  const turn = store.getTurn(turnId);
  if (turn === undefined) return turnId;
  return leafOfSession(store, turn.sessionId)?.batch.turnId ?? turnId;
}

/** `turns` less those of subagent leaves (a leaf's turn resumes with its batch, not on its own). */
export function withoutLeafTurns<T extends { readonly sessionId: string }>(
  store: SessionStore,
  turns: T[],
): T[] {
  const leafSessions = new Set<string>();
  for (const batch of store.listBatches()) {
    for (const leaf of batch.leaves)
      if (leaf.childSessionId !== undefined) leafSessions.add(leaf.childSessionId);
  }
  return turns.filter((t) => !leafSessions.has(t.sessionId));
}
