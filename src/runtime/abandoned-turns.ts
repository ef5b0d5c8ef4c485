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
    for (const call of store.listToolCalls({ turnId: turn.id, status: ['pending', 'approved', 'running'] })) {
      store.recordToolResult(turn.id, call.id, {
        status: 'failed',
        content: `Error: ${call.tool} was not run: its turn was interrupted and a new message came first.`,
        isError: true,
        notRun: 'stopped',
      });
    }
    store.setTurnStatus(turn.id, 'interrupted', { error: 'a new message was sent before it finished' });
  }
}
