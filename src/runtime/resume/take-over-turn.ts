import { ToolseamError } from '../../core/errors.js';
import type { SessionStore, TurnRecord } from '../../core/session-store.js';

/**
 * Makes `owner` the driver of an unfinished turn, compare-and-set on the owner it was read with:
 * throws when another process took it over first, or it ended meanwhile.
 */
export async function takeOverTurn(store: SessionStore, turn: TurnRecord, owner: string): Promise<void> {
  const takeover = {
    from: ['running', 'waiting_approval'] as const,
    owner,
    fromOwner: turn.owner ?? null,
  };
  if (await store.setTurnStatus(turn.id, 'running', takeover)) return;
  const now = await store.getTurn(turn.id);
  if (now && now.owner !== turn.owner && (now.status === 'running' || now.status === 'waiting_approval')) {
    throw new ToolseamError(
      'turn_busy',
      `Turn ${turn.id} was just taken over by another process (${now.owner}).`,
    );
  }
  throw new ToolseamError(
    'turn_finished',
    `Turn ${turn.id} has already ended (${now?.status ?? turn.status}).`,
  );
}
