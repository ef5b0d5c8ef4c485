import { denyRuleFor } from '../../surface/tool-access.js';
import type { Gate } from './gate.js';

/** A tool a deny-list rule covers never runs. */
export const denyListGate: Gate = (call, env) => {
  const denied = denyRuleFor(env.gates.denyList, call.tool);
  if (denied === undefined) return undefined;
  if (denied.reason !== undefined) return { by: 'deny_list', reason: denied.reason };
  return { by: 'deny_list', reason: `${call.tool} is on the deny-list`, plain: 'it is on the deny-list' };
};
