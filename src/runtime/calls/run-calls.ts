import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import { carryOut, invoke, invokeAfterWait, planCall } from './call-path.js';
import type { PlannedCall } from './planned-call.js';

/**
 * Runs a reply's calls. Calls that need a person run alone, in the model's order; the others run
 * side by side (up to the parallel limit) between them.
 */
export async function runCalls(
  env: TurnEnvironment,
  state: TurnState,
  calls: readonly PlannedCall[],
): Promise<void> {
  let group: Promise<unknown>[] = [];
  // Every call of a group ends before a failure goes up: the turn's clean-up must not answer a
  // sibling that is still running as if it never ran.
  const flush = async (): Promise<void> => {
    const ends = await Promise.allSettled(group);
    group = [];
    const failed = ends.find((end) => end.status === 'rejected');
    if (failed) throw failed.reason;
  };
  for (const call of calls) {
    const plan = await planCall(env, state, call);
    if (plan.kind === 'run') {
      const full = group.length >= env.limits.parallelCalls;
      if (full) await flush();
      group.push(full ? invokeAfterWait(env, state, call) : invoke(env, state, call));
      continue;
    }
    // A call put to a person runs alone, once the calls before it have ended.
    if (plan.kind === 'ask') await flush();
    await carryOut(env, state, call, plan);
  }
  await flush();
}
