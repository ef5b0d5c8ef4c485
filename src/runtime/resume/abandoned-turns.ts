import { ToolseamError } from '../../core/errors.js';
import { FINAL_TURN_STATES } from '../../core/session-records.js';
import type { SessionStore, TurnRecord } from '../../core/session-store.js';
import { StoreConflictError } from '../../core/store-errors.js';
import { deliverFinishedBatches, type ResultBounds } from '../batches/deliver-batch.js';
import { leafEnding } from '../batches/leaf-ending.js';
import { ownerAlive, QUEUED_OWNER } from './turn-owner.js';

/**
 * Before a new turn in a session: a previous turn whose process died unfinished is closed — its
 * waiting approvals cancelled, its loose calls answered as not run — so the conversation the model
 * reads stays whole (a batch call is answered with its leaves' results, bounded by `bounds`). A turn
 * still running in a live process refuses the new one.
 */
export async function interruptAbandoned(
  store: SessionStore,
  sessionId: string,
  owner: string,
  bounds: ResultBounds,
): Promise<void> {
  for (const turn of await store.listTurns({ sessionId, status: ['running', 'waiting_approval'] })) {
    if (turn.owner !== owner && ownerAlive(turn)) {
      throw new ToolseamError(
        'turn_busy',
        `Session ${sessionId} has a turn running in another process (${turn.owner}).`,
      );
    }
    // Parked or queued (or this runtime's own): the new message cuts it off; else its process died first.
    const cause = turn.owner === QUEUED_OWNER || turn.owner === owner ? 'new_message' : 'process_gone';
    const moved = await closeUnheldTurn(store, turn, owner, bounds, cause);
    if (!moved) {
      const now = await store.getTurn(turn.id);
      if (now === undefined || FINAL_TURN_STATES.includes(now.status)) continue;
      throw new ToolseamError(
        'turn_busy',
        `Session ${sessionId} has a turn another process has just taken over; wait for it to finish.`,
      );
    }
  }
  // A finished turn can still hold loose calls (one that failed inside toolseam, or was finished by an
  // older version): every call the model made must have a result before the model is asked again.
  await answerLooseCalls(store, { sessionId }, 'its turn ended');
}

/**
 * Why a turn no process holds is closed: a person stopped it, a new message in its session cut it off,
 * or the process running it died (and a new message found it so).
 */
export type ClosingCause = 'stopped' | 'new_message' | 'process_gone';

/** What each cause leaves: the turn's state and error, the words for its loose calls and for its leaves. */
const CLOSINGS: Record<
  ClosingCause,
  {
    readonly state: 'interrupted' | 'stopped';
    readonly error: string;
    /** Ends "…, but <why> before its result came back" / "was not run: <why> before it started". */
    readonly why: string;
    /** What happened to a leaf's parent turn, after "its parent turn". */
    readonly parent: string;
  }
> = {
  stopped: {
    state: 'stopped',
    error: 'stopped by a person',
    why: 'the person stopped its turn',
    parent: 'was stopped by the person',
  },
  new_message: {
    state: 'interrupted',
    error: 'a new message was sent before it finished',
    why: 'a new message interrupted its turn',
    parent: 'was interrupted by a new message',
  },
  process_gone: {
    state: 'interrupted',
    error: 'the process running it ended before it finished',
    why: 'the process running its turn ended',
    parent: 'lost the process running it',
  },
};

/**
 * Ends a turn no live process holds (its owner died, or it is parked waiting for an approval or queued
 * for a worker) as `cause` says: a compare-and-set on the owner read with it, so a process that took
 * the turn over meanwhile keeps it (false then). Its waiting approvals are cancelled with the move; its
 * batches are closed first (their leaves told of the cause), so a batch call is answered with what its
 * leaves gave, not as a call whose end is unknown; every other loose call is answered with the cause.
 */
export async function closeUnheldTurn(
  store: SessionStore,
  turn: TurnRecord,
  owner: string,
  bounds: ResultBounds,
  cause: ClosingCause,
): Promise<boolean> {
  const end = CLOSINGS[cause];
  const moved = await store.setTurnStatus(turn.id, end.state, {
    error: end.error,
    fromOwner: turn.owner ?? null,
  });
  if (!moved) return false;
  await closeBatchesOf(store, turn, owner, end);
  await deliverFinishedBatches(store, turn.sessionId, turn.id, bounds);
  await answerLooseCalls(store, { turnId: turn.id }, end.why);
  return true;
}

/** What happened to a leaf's parent turn that ended as `status` (after "its parent turn"). */
export function parentEnding(status: TurnRecord['status']): string {
  if (status === 'stopped') return CLOSINGS.stopped.parent;
  if (status === 'interrupted') return 'was interrupted';
  return `ended (${status})`;
}

const UNFINISHED: ('running' | 'waiting_approval')[] = ['running', 'waiting_approval'];

/**
 * Closes the subagent batches a closed turn left running: nobody will deliver their result any more, so
 * each unfinished leaf ends as failed (its child turn ended as its parent did, its approvals cancelled,
 * its loose calls answered, each saying what happened to the parent) and the batch as failed. A batch with a leaf
 * still driven by a live process (a worker running it) is left to that process, which a stop reaches
 * by its signal. A leaf another process finished meanwhile keeps the ending it was given.
 */
async function closeBatchesOf(
  store: SessionStore,
  turn: TurnRecord,
  owner: string,
  end: { readonly state: 'interrupted' | 'stopped'; readonly parent: string },
): Promise<void> {
  const batches = await store.listBatches({ parentSessionId: turn.sessionId, unfinished: true });
  for (const batch of batches.filter((b) => b.turnId === turn.id)) {
    const open = batch.leaves.filter((l) => l.status === 'queued' || l.status === 'running');
    const childTurns: TurnRecord[] = [];
    for (const l of open) {
      if (l.childSessionId === undefined) continue;
      childTurns.push(...(await store.listTurns({ sessionId: l.childSessionId, status: UNFINISHED })));
    }
    if (childTurns.some((t) => t.owner !== owner && ownerAlive(t))) continue;
    // Leaves first: a worker that sees a child turn ended records its leaf from that turn, and would
    // otherwise take the leaf between the two writes, in words that do not say the parent was closed.
    for (const leaf of open) {
      const when = leaf.status === 'queued' ? 'before this leaf started' : 'before this leaf finished';
      const result = {
        status: 'failed' as const,
        errors: [`the batch's parent turn ${end.parent} ${when}`],
      };
      const child = leaf.childSessionId;
      try {
        await store.finishLeaf(
          leaf.id,
          child === undefined ? result : await leafEnding(store, child, result),
        );
      } catch (error) {
        if (!(error instanceof StoreConflictError)) throw error;
      }
    }
    for (const child of childTurns) {
      const why = `its parent turn ${end.parent}`;
      if (!(await store.setTurnStatus(child.id, end.state, { error: why, fromOwner: child.owner ?? null })))
        continue;
      await answerLooseCalls(store, { turnId: child.id }, why);
    }
    await store.finishBatch(batch.id, 'failed');
  }
}

/**
 * Answers every unsettled call the filter finds as failed, saying `why` (what ended its turn): one never started as not
 * run, one already started as started with its end unknown (it may have done its work, so the model
 * must not read it as safe to repeat).
 */
export async function answerLooseCalls(
  store: SessionStore,
  where: { readonly turnId: string } | { readonly sessionId: string },
  why: string,
): Promise<void> {
  for (const call of await store.listToolCalls({ ...where, status: ['pending', 'approved', 'running'] })) {
    if (call.status === 'running') {
      await store.recordToolResult(call.turnId, call.id, {
        status: 'failed',
        content: `Error: ${call.tool} was started, but ${why} before its result came back, so whether it finished is unknown. Check before running it again.`,
        isError: true,
      });
      continue;
    }
    await store.recordToolResult(call.turnId, call.id, {
      status: 'failed',
      content: `Error: ${call.tool} was not run: ${why} before it started.`,
      isError: true,
      notRun: 'stopped',
    });
  }
}
