import type { TurnEnvironment } from '../../turn/turn-environment.js';
import type { TurnState } from '../../turn/turn-state.js';
import type { PlannedCall } from '../planned-call.js';
import type { Refusal } from '../refusals.js';

/** One check a call passes before anything runs: a refusal answers the call, undefined lets it on. */
export type Gate = (
  call: PlannedCall,
  env: TurnEnvironment,
  state: TurnState,
) => Refusal | undefined | Promise<Refusal | undefined>;

/** A gate that answers at once (checked again just before a call runs, where nothing may wait). */
export type PromptGate = (call: PlannedCall, env: TurnEnvironment, state: TurnState) => Refusal | undefined;
