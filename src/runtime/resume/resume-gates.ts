import { ToolseamError } from '../../core/errors.js';
import type { SessionStore, TurnRecord } from '../../core/session-store.js';
import type { TaskMode } from '../runtime-options.js';
import { leafOfSession } from './leaf-turns.js';

/**
 * A subagent leaf's turn resumes only with its batch (its limits, grants and mode live there, and the
 * batch and the parent's call must learn how it ended): resuming it alone is refused, naming the turn
 * to resume instead.
 */
export async function refuseLeafTurn(store: SessionStore, turn: TurnRecord): Promise<void> {
  const found = await leafOfSession(store, turn.sessionId);
  if (found === undefined) return;
  const { batch, leaf } = found;
  const parent =
    batch.turnId === undefined ? '' : ` Resume its parent turn instead: toolseam resume ${batch.turnId}.`;
  throw new ToolseamError(
    'leaf_turn',
    `Turn ${turn.id} is the work of subagent leaf "${leaf.title}" in batch ${batch.id}; it resumes only with its batch, under the leaf's limits.${parent}`,
  );
}

/** The agent and task mode a turn was started with, as it stored them. */
export function turnGates(turn: TurnRecord): { agent?: string; mode?: TaskMode } {
  const gates: { agent?: string; mode?: TaskMode } = {};
  if (turn.agent !== undefined) gates.agent = turn.agent;
  if (turn.mode !== undefined) {
    if (!TASK_MODES.includes(turn.mode as TaskMode)) {
      throw new ToolseamError(
        'unknown_mode',
        `Turn ${turn.id} was started in task mode "${turn.mode}", which this version does not know, so it is not resumed.`,
      );
    }
    gates.mode = turn.mode as TaskMode;
  }
  return gates;
}

const TASK_MODES: readonly TaskMode[] = ['agent', 'plan'];
