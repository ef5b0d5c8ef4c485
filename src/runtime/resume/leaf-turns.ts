import type { TurnRecord } from '../../core/session-records.js';
import type { BatchRecord, LeafRecord, SessionStore } from '../../core/session-store.js';
import { ownerAlive } from './turn-owner.js';

/** The subagent leaf whose child session is `sessionId`, with its batch; undefined for any other session. */
export async function leafOfSession(
  store: SessionStore,
  sessionId: string,
): Promise<{ readonly batch: BatchRecord; readonly leaf: LeafRecord } | undefined> {
  for (const batch of await store.listBatches({ childSessionId: sessionId })) {
    const leaf = batch.leaves.find((l) => l.childSessionId === sessionId);
    if (leaf !== undefined) return { batch, leaf };
  }
  return undefined;
}

/** The turn to resume for `turnId`: a leaf's turn resumes with its batch, through the parent's turn. */
export async function turnToResume(store: SessionStore, turnId: string): Promise<string> {
  const turn = await store.getTurn(turnId);
  if (turn === undefined) return turnId;
  return (await leafOfSession(store, turn.sessionId))?.batch.turnId ?? turnId;
}

/** `turns` less those of subagent leaves (a leaf's turn resumes with its batch, not on its own). */
async function withoutLeafTurns<T extends { readonly sessionId: string }>(
  store: SessionStore,
  turns: T[],
): Promise<T[]> {
  // One indexed look-up per turn: unfinished turns are few, finished batches pile up.
  const kept: T[] = [];
  for (const t of turns) if ((await leafOfSession(store, t.sessionId)) === undefined) kept.push(t);
  return kept;
}

/** The turns a dead process left unfinished that a person would resume (a leaf's resume with its batch). */
export async function resumableTurns(store: SessionStore): Promise<TurnRecord[]> {
  const unfinished = await store.listTurns({ status: ['running', 'waiting_approval'] });
  return withoutLeafTurns(
    store,
    unfinished.filter((t) => !ownerAlive(t)),
  );
}
