import { agentAllows } from '../../surface/tool-access.js';
import type { ToolSurface } from '../../surface/tool-surface.js';
import type { GatePolicy } from './gate-policy.js';

/**
 * Why a tool that exists is not on this run's surface: the agent's tool list or the run's grants
 * withhold it, the deny-list refuses it, or the seam left it out; undefined when no tool has the name.
 */
export function unusableReason(policy: GatePolicy, surface: ToolSurface, tool: string): string | undefined {
  const denied = surface.denied.get(tool);
  if (denied) {
    const why = denied.reason === undefined ? '' : ` (${denied.reason})`;
    return `${tool} is refused by the deny-list in toolseam's configuration${why}, whatever its arguments`;
  }
  if (surface.withheld.includes(tool)) {
    return agentAllows(policy.agent, tool)
      ? `${tool} is not among the tools this run was granted`
      : offListReason(policy, tool);
  }
  return leftOutReason(surface, tool);
}

/** Why the agent's tool list keeps a tool from it. */
export function offListReason(policy: GatePolicy, tool: string): string {
  const agent = policy.agent?.name ?? 'default';
  return `the agent "${agent}" may use only the tools on its tool list, and ${tool} is not one of them`;
}

/** Why the seam left a tool out, or a quarantine for this model did, when one did. */
export function leftOutReason(surface: ToolSurface, tool: string): string | undefined {
  const said = surface.quarantined.get(tool);
  if (said !== undefined) {
    const words = said === '' ? '' : ` (${said})`;
    return `${tool} is left out on this model: the model provider refused its definition${words}, until the user switches it back on (on the Tools page, or with \`toolseam tools --on ${tool}\`)`;
  }
  const excluded = surface.excluded.find((t) => t.name === tool);
  return excluded ? `${tool} cannot be offered to models: ${excluded.message}` : undefined;
}
