import { ToolseamError } from '../../core/errors.js';
import type { SessionStore } from '../../core/session-store.js';
import { StoreConflictError } from '../../core/store-errors.js';
import { ownerAlive } from '../resume/turn-owner.js';

/** A session was asked for by an id the store does not hold. */
export class UnknownSessionError extends ToolseamError {
  constructor(readonly sessionId: string) {
    super('unknown_session', `There is no session with id ${JSON.stringify(sessionId)}.`);
  }
}

/** A session cannot be deleted while a turn of it (or of a child session) runs. */
export class SessionTurnRunningError extends ToolseamError {
  constructor(
    readonly sessionId: string,
    /** The running turn, when it is stored yet. */
    readonly turnId: string | undefined,
    /** Where it runs: `here`, or another process's owner name. */
    readonly runningIn: string,
  ) {
    const where = runningIn === 'here' ? 'in this process' : `in another process (${runningIn})`;
    const turn = turnId === undefined ? 'a turn' : `turn ${turnId}`;
    super(
      'turn_running',
      `Session ${sessionId} has ${turn} running ${where}, so it was not deleted; stop the turn or wait for it to end, then delete the session.`,
    );
  }
}

/** What deleting a session asks of the runtime: who it is, and which sessions run a turn in it now. */
export interface DeleteJudge {
  readonly owner: string;
  readonly runningHere: (sessionId: string) => boolean;
}

/**
 * Deletes a session and what is stored for it (child sessions included), unless a turn of theirs is
 * running: here (the runtime says so) or in a live process. An unfinished turn whose process is gone
 * is deleted with it. Returns the ids deleted.
 */
export async function deleteSession(
  store: SessionStore,
  sessionId: string,
  judge: DeleteJudge,
): Promise<string[]> {
  if (judge.runningHere(sessionId)) throw new SessionTurnRunningError(sessionId, undefined, 'here');
  const unfinished = await store.listTurns({ status: ['running', 'waiting_approval'] });
  // This runtime's own turns are running exactly while their session is; others' while their owner lives.
  const running = (t: (typeof unfinished)[number]) =>
    t.owner === judge.owner ? judge.runningHere(t.sessionId) : ownerAlive(t);
  const abandonedTurns = unfinished.filter((t) => !running(t)).map((t) => t.id);
  let deleted: string[];
  try {
    deleted = await store.deleteSession(sessionId, { abandonedTurns });
  } catch (error) {
    if (!(error instanceof StoreConflictError) || error.kind !== 'turn') throw error;
    const turn = unfinished.find((t) => t.id === error.id);
    const mine = turn === undefined ? judge.runningHere(sessionId) : turn.owner === judge.owner;
    const where = mine ? 'here' : (turn?.owner ?? 'another process');
    throw new SessionTurnRunningError(sessionId, error.id, where);
  }
  if (deleted.length === 0) throw new UnknownSessionError(sessionId);
  return deleted;
}
