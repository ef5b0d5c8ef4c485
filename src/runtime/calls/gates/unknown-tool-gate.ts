import type { Gate } from './gate.js';
import { leftOutReason } from './unusable-reason.js';

/** A name no tool on the surface has is refused, saying why when the tool exists but is left out. */
export const unknownToolGate: Gate = (call, env) => {
  if (call.target.definition !== undefined) return undefined;
  return {
    by: 'unknown_tool',
    reason: leftOutReason(env.surface, call.tool) ?? `there is no tool named ${call.tool}`,
  };
};
