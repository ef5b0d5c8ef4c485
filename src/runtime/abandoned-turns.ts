import { ToolseamError } from '../core/errors.js';
import type { SessionStore } from '../core/session-store.js';
import { ownerAlive } from './turn-owner.js';

/**
 * Before a new turn in a session: a previous turn whose process died unfinished is closed — its
 * waiting approvals cancelled, its loose calls answered as not run — so the conversation the model
 * reads stays whole. A turn still running in a live process refuses the new one.
 */
export function interruptAbandoned(store: SessionStore, sessionId: string, owner: string): void {
  for (const turn of store.listTurns({ sessionId, status: ['running', 'waiting_approval'] })) {
    if (turn.owner !== owner && ownerAlive(turn.owner)) {
      throw new ToolseamError(
        'turn_busy',
        `Session ${sessionId} has a turn running in another process (${turn.owner}).`,
      );
    }
    for (const approval of store.listApprovals({ turnId: turn.id, status: 'pending' })) {
      store.closeApproval(approval.id, 'cancelled', 'a new message was sent before it was answered');
    }
    answerLooseCalls(store, { turnId: turn.id }, 'its turn was interrupted and a new message came first');
    store.setTurnStatus(turn.id, 'interrupted', { error: 'a new message was sent before it finished' });
  }
  // A finished turn can still hold loose calls (one that failed inside toolseam, or was finished by an
  // older version): every call the model made must have a result before the model is asked again.
  answerLooseCalls(store, { sessionId }, 'its turn ended before it ran');
}

/** Answers every unsettled call the filter finds as failed and not run, saying `why`. */
export function answerLooseCalls(
  store: SessionStore,
  where: { readonly turnId: string } | { readonly sessionId: string },
  why: string,
): void {
  for (const call of store.listToolCalls({ ...where, status: ['pending', 'approved', 'running'] })) {
    store.recordToolResult(call.turnId, call.id, {
      status: 'failed',
      content: `Error: ${call.tool} was not run: ${why}.`,
      isError: true,
      notRun: 'stopped',
    });
  }
}
