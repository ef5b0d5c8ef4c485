import type { Gate } from './gate.js';

/** The same call with the same arguments runs at most `repeatLimit` times a turn. */
export const loopBreakerGate: Gate = (call, env, state) => {
  const repeats = state.repeats.get(call.digest) ?? 0;
  if (repeats < env.limits.repeatLimit) return undefined;
  const reason = `it is the same call with the same arguments as ${repeats} earlier call${repeats === 1 ? '' : 's'} this turn`;
  return { by: 'loop_breaker', reason, notRun: 'loop_breaker' };
};
