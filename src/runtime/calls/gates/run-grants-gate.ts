import { grantsAllow } from '../../surface/tool-access.js';
import type { Gate } from './gate.js';

/** A run with tool grants (a subagent leaf) uses only the tools they cover. */
export const runGrantsGate: Gate = (call, env) =>
  grantsAllow(env.gates.grants, call.tool)
    ? undefined
    : { by: 'tool_grants', reason: `${call.tool} is not among the tools this run was granted` };
