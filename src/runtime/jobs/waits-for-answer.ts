import type { SessionStore, TurnRecord } from '../../core/session-store.js';
import { QUEUED_OWNER } from '../resume/turn-owner.js';

/**
 * True for a turn parked on a question that can still be answered: no process holds it, and one of its
 * approvals is pending and within its deadline. Its job has nothing to do until the answer (or the
 * deadline) comes.
 */
export async function waitsForAnswer(
  store: SessionStore,
  turn: TurnRecord,
  now = Date.now(),
): Promise<boolean> {
  if (turn.owner !== QUEUED_OWNER || turn.status !== 'waiting_approval') return false;
  const approvals = await store.listApprovals({ turnId: turn.id });
  return approvals.some(
    (a) => a.status === 'pending' && (a.expiresAt === undefined || Date.parse(a.expiresAt) > now),
  );
}
