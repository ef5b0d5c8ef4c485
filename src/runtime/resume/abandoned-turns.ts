import { ToolseamError } from '../../core/errors.js';
import { FINAL_TURN_STATES } from '../../core/session-records.js';
import type { SessionStore, TurnRecord } from '../../core/session-store.js';
import { deliverFinishedBatches, type ResultBounds } from '../batches/deliver-batch.js';
import { leafEnding } from '../batches/leaf-ending.js';
import { ownerAlive } from './turn-owner.js';

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
    const moved = await closeUnheldTurn(store, turn, owner, bounds, {
      state: 'interrupted',
      error: 'a new message was sent before it finished',
      why: 'a new message interrupted its turn',
    });
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
 * Ends a turn no live process holds (its owner died, or it is parked waiting for an approval or queued
 * for a worker) as `end.state`: a compare-and-set on the owner read with it, so a process that took the
 * turn over meanwhile keeps it (false then). Its waiting approvals are cancelled with the move; its
 * batches are closed first, so a batch call is answered with what its leaves gave, not as a call whose
 * end is unknown; every other loose call is answered with `end.why`.
 */
export async function closeUnheldTurn(
  store: SessionStore,
  turn: TurnRecord,
  owner: string,
  bounds: ResultBounds,
  end: { readonly state: 'interrupted' | 'stopped'; readonly error: string; readonly why: string },
): Promise<boolean> {
  const moved = await store.setTurnStatus(turn.id, end.state, {
    error: end.error,
    fromOwner: turn.owner ?? null,
  });
  if (!moved) return false;
  await closeBatchesOf(store, turn.sessionId, turn.id, owner);
  await deliverFinishedBatches(store, turn.sessionId, turn.id, bounds);
  await answerLooseCalls(store, { turnId: turn.id }, end.why);
  return true;
}

const UNFINISHED: ('running' | 'waiting_approval')[] = ['running', 'waiting_approval'];

/**
 * Closes the subagent batches an interrupted turn left running: nobody will deliver their result any
 * more, so each unfinished leaf ends as failed (its child turn interrupted, its approvals cancelled,
 * its loose calls answered) and the batch as failed. A batch with a leaf still driven by a live
 * process (resumed on its own elsewhere) is left to that process.
 */
async function closeBatchesOf(
  store: SessionStore,
  sessionId: string,
  turnId: string,
  owner: string,
): Promise<void> {
  const batches = await store.listBatches({ parentSessionId: sessionId, unfinished: true });
  for (const batch of batches.filter((b) => b.turnId === turnId)) {
    const open = batch.leaves.filter((l) => l.status === 'queued' || l.status === 'running');
    const childTurns: TurnRecord[] = [];
    for (const l of open) {
      if (l.childSessionId === undefined) continue;
      childTurns.push(...(await store.listTurns({ sessionId: l.childSessionId, status: UNFINISHED })));
    }
    if (childTurns.some((t) => t.owner !== owner && ownerAlive(t))) continue;
    for (const child of childTurns) {
      const why = 'its parent turn was interrupted by a new message';
      if (
        !(await store.setTurnStatus(child.id, 'interrupted', { error: why, fromOwner: child.owner ?? null }))
      )
        continue;
      await answerLooseCalls(store, { turnId: child.id }, why);
    }
    for (const leaf of open) {
      const when = leaf.status === 'queued' ? 'before this leaf started' : 'before this leaf finished';
      const result = {
        status: 'failed' as const,
        errors: [`the batch's parent turn was interrupted by a new message ${when}`],
      };
      const child = leaf.childSessionId;
      await store.finishLeaf(leaf.id, child === undefined ? result : await leafEnding(store, child, result));
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
