import { agentAllows } from '../../surface/tool-access.js';
import type { Gate } from './gate.js';
import { offListReason } from './unusable-reason.js';

/** The session's agent uses only the tools on its tool list (the meta-tools always). */
export const agentToolListGate: Gate = (call, env) =>
  agentAllows(env.gates.agent, call.tool)
    ? undefined
    : { by: 'agent_tools', reason: offListReason(env.gates, call.tool) };
