import type { TurnEnvironment } from '../../turn/turn-environment.js';
import type { TurnState } from '../../turn/turn-state.js';
import type { CallTarget } from '../call-target.js';
import type { PlannedCall } from '../planned-call.js';
import type { Refusal } from '../refusals.js';
import { agentToolListGate } from './agent-tool-list-gate.js';
import { denyListGate } from './deny-list-gate.js';
import type { Gate, PromptGate } from './gate.js';
import { loopBreakerGate } from './loop-breaker-gate.js';
import { preToolHookGate } from './pre-tool-hook-gate.js';
import { runGrantsGate } from './run-grants-gate.js';
import { stoppedGate } from './stopped-gate.js';
import { taskModeGate } from './task-mode-gate.js';
import { toolCallLimitGate } from './tool-call-limit-gate.js';
import { unknownToolGate } from './unknown-tool-gate.js';
import { withdrawnGate } from './withdrawn-gate.js';

/** The gates every call passes before it counts, in order: the first refusal answers the call. */
export const GATES: readonly Gate[] = [
  stoppedGate,
  toolCallLimitGate,
  loopBreakerGate,
  agentToolListGate,
  denyListGate,
  taskModeGate,
  runGrantsGate,
  preToolHookGate,
  unknownToolGate,
  withdrawnGate,
];

/** A target only the agent's tool list screens (the meta-tools) passes the gates up to that one. */
const UNSCREENED: readonly Gate[] = GATES.slice(0, GATES.indexOf(agentToolListGate) + 1);

/**
 * The gates checked again just before a call that waited is invoked (for a person, a free slot, a
 * restart): meanwhile the turn may have been stopped or the tool withdrawn.
 */
export const GATES_BEFORE_INVOKE: readonly PromptGate[] = [stoppedGate, withdrawnGate];

/** The gates a call to `target` passes. */
export function gatesFor(target: CallTarget): readonly Gate[] {
  return target.screened ? GATES : UNSCREENED;
}

/** The first refusal of `gates`, in order, or undefined when every gate lets the call on. */
export async function firstRefusal(
  gates: readonly Gate[],
  call: PlannedCall,
  env: TurnEnvironment,
  state: TurnState,
): Promise<Refusal | undefined> {
  for (const gate of gates) {
    const verdict = gate(call, env, state);
    // only a gate that waits (the hooks) is waited for: the others answer within this step
    const refusal = verdict instanceof Promise ? await verdict : verdict;
    if (refusal) return refusal;
  }
  return undefined;
}

/** The first refusal of gates that answer at once. */
export function firstRefusalNow(
  gates: readonly PromptGate[],
  call: PlannedCall,
  env: TurnEnvironment,
  state: TurnState,
): Refusal | undefined {
  for (const gate of gates) {
    const refusal = gate(call, env, state);
    if (refusal) return refusal;
  }
  return undefined;
}
