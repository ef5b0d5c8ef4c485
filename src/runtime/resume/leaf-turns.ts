import type { TurnRecord } from '../../core/session-records.js';
import type { BatchRecord, LeafRecord, SessionStore } from '../../core/session-store.js';
import { ownerAlive } from './turn-owner.js';

/** The subagent leaf whose child session is `sessionId`, with its batch; undefined for any other session. */
export function leafOfSession(
  store: SessionStore,
  sessionId: string,
): { readonly batch: BatchRecord; readonly leaf: LeafRecord } | undefined {
  for (const batch of store.listBatches({ childSessionId: sessionId })) {
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
function withoutLeafTurns<T extends { readonly sessionId: string }>(store: SessionStore, turns: T[]): T[] {
  // One indexed look-up per turn: unfinished turns are few, finished batches pile up.
  return turns.filter((t) => leafOfSession(store, t.sessionId) === undefined);
}

/** The turns a dead process left unfinished that a person would resume (a leaf's resume with its batch). */
export function resumableTurns(store: SessionStore): TurnRecord[] {
  const unfinished = store.listTurns({ status: ['running', 'waiting_approval'] });
  return withoutLeafTurns(
    store,
    unfinished.filter((t) => !ownerAlive(t)),
  );
}
