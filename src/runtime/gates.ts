import type { JsonObject } from '../core/json.js';
import type { ToolDefinition } from '../core/tool.js';
import type { ToolRegistry } from '../tools/registry/tool-registry.js';
import { globMatch } from './glob-match.js';
import { type PreToolHook, runPreToolHooks } from './pre-tool-hooks.js';
import type { Refusal } from './refusals.js';
import type { AgentConfig, DenyRule, TaskMode } from './runtime-options.js';
import { META_TOOL_NAMES, type ToolSurface } from './tool-surface.js';

/** The policies that screen a call before anyone is asked. */
export interface GatePolicy {
  readonly agent?: { readonly name: string; readonly config: AgentConfig } | undefined;
  readonly mode: TaskMode;
  readonly denyList: readonly DenyRule[];
  /** Globs this run may use at all (a leaf's grants); every tool when undefined. */
  readonly grants?: readonly string[] | undefined;
  readonly hooks: readonly PreToolHook[];
}

/** True when the session's agent may use `name` (meta-tools always). */
export function agentAllows(agent: GatePolicy['agent'], name: string): boolean {
  if (META_TOOL_NAMES.has(name) || !agent?.config.tools) return true;
  return agent.config.tools.some((pattern) => globMatch(pattern, name));
}

/**
 * The deny-list rule that refuses `name`, if any (meta-tools never). A rule names tools only, never
 * arguments, so a tool it covers is refused whatever it is asked: such a tool is not offered at all.
 */
export function denyRuleFor(denyList: readonly DenyRule[], name: string): DenyRule | undefined {
  if (META_TOOL_NAMES.has(name)) return undefined;
  return denyList.find((rule) => globMatch(rule.tool, name));
}

/** True when a run's tool grants cover `name` (every tool when there are none). */
export function grantsAllow(grants: readonly string[] | undefined, name: string): boolean {
  return grants === undefined || META_TOOL_NAMES.has(name) || grants.some((g) => globMatch(g, name));
}

/**
 * True when a tool declares it only reads (plan mode lets only these run). A `safe` risk alone is not
 * enough: a tool that never asks may still change state (memory_save, task_create).
 */
export function isReadOnly(def: ToolDefinition): boolean {
  return def.readOnly === true;
}

/**
 * Screens one call through the gates, in order: the agent's tool list, the deny-list, the task mode,
 * the run's grants, the pre-tool hooks, unknown tool, withdrawn since the turn began. Returns the
 * first refusal, or undefined when the call may go on (to preflight and the ask).
 */
export async function screenCall(
  policy: GatePolicy,
  call: {
    readonly tool: string;
    readonly args: JsonObject;
    readonly sessionId: string;
    readonly surface: ToolSurface;
    readonly registry: ToolRegistry;
    /** Set when the runtime answers the tool itself (it has no provider to withdraw it). */
    readonly runtimeTool?: ToolDefinition;
    /** The call's own work keeps the turn's task mode (see `RuntimeTool.keepsTaskMode`). */
    readonly keepsTaskMode?: boolean;
    /** The turn's stop: a hook still running when it aborts is killed, and the call ends as stopped. */
    readonly signal?: AbortSignal;
  },
): Promise<Refusal | undefined> {
  const { tool } = call;
  const meta = META_TOOL_NAMES.has(tool);
  if (!agentAllows(policy.agent, tool)) return { by: 'agent_tools', reason: offListReason(policy, tool) };
  if (meta) return undefined;
  const denied = denyRuleFor(policy.denyList, tool);
  if (denied) return denyRefusal(denied, tool);
  const def = call.runtimeTool ?? call.surface.byName.get(tool)?.definition;
  if (policy.mode === 'plan' && def && !isReadOnly(def) && call.keepsTaskMode !== true) {
    return { by: 'task_mode', reason: 'this session is in plan mode, where only read-only tools run' };
  }
  if (!grantsAllow(policy.grants, tool)) {
    return { by: 'tool_grants', reason: `${tool} is not among the tools this run was granted` };
  }
  const blocked = await runPreToolHooks(
    policy.hooks,
    { tool, arguments: call.args, sessionId: call.sessionId },
    call.signal,
  );
  if (call.signal?.aborted) return { by: 'stopped', reason: '' };
  if (blocked !== undefined) return { by: 'hook', reason: blocked };
  if (!def) return { by: 'unknown_tool', reason: unknownReason(call.surface, tool) };
  return call.runtimeTool ? undefined : withdrawnReason(call.registry, def);
}

function denyRefusal(rule: DenyRule, tool: string): Refusal {
  if (rule.reason !== undefined) return { by: 'deny_list', reason: rule.reason };
  return { by: 'deny_list', reason: `${tool} is on the deny-list`, plain: 'it is on the deny-list' };
}

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

function offListReason(policy: GatePolicy, tool: string): string {
  const agent = policy.agent?.name ?? 'default';
  return `the agent "${agent}" may use only the tools on its tool list, and ${tool} is not one of them`;
}

function unknownReason(surface: ToolSurface, tool: string): string {
  return leftOutReason(surface, tool) ?? `there is no tool named ${tool}`;
}

/** Why the seam left a tool out, or a quarantine for this model did, when one did. */
function leftOutReason(surface: ToolSurface, tool: string): string | undefined {
  const said = surface.quarantined.get(tool);
  if (said !== undefined) {
    const words = said === '' ? '' : ` (${said})`;
    return `${tool} is left out on this model: the model provider refused its definition${words}, until the user lifts that with \`toolseam tools --on ${tool}\``;
  }
  const excluded = surface.excluded.find((t) => t.name === tool);
  return excluded ? `${tool} cannot be offered to models: ${excluded.message}` : undefined;
}

/** A refusal when the tool was switched off or its provider removed since the turn began. */
export function withdrawnReason(registry: ToolRegistry, def: ToolDefinition): Refusal | undefined {
  if (!registry.isEnabled(def.name)) {
    return { by: 'withdrawn', reason: 'it was switched off after this turn began' };
  }
  const provider = registry.providerOf(def.name);
  if (!provider || (def.provider !== undefined && provider.provider.name !== def.provider)) {
    return {
      by: 'withdrawn',
      reason: 'the app or server that provides it was removed or changed after this turn began',
    };
  }
  return undefined;
}
