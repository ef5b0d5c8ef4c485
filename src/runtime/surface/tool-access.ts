import { globMatch } from '../glob-match.js';
import type { AgentConfig, DenyRule } from '../runtime-options.js';
import { META_TOOL_NAMES } from './tool-surface.js';

/** The agent a session runs as, with its configuration; undefined for the default agent. */
export type SessionAgent = { readonly name: string; readonly config: AgentConfig } | undefined;

/** True when the session's agent may use `name` (meta-tools always). */
export function agentAllows(agent: SessionAgent, name: string): boolean {
  if (META_TOOL_NAMES.has(name) || !agent?.config.tools) return true;
  return agent.config.tools.some((pattern) => globMatch(pattern, name));
}

/** True when a run's tool grants cover `name` (every tool when there are none). */
export function grantsAllow(grants: readonly string[] | undefined, name: string): boolean {
  return grants === undefined || META_TOOL_NAMES.has(name) || grants.some((g) => globMatch(g, name));
}

/**
 * The deny-list rule that refuses `name`, if any (meta-tools never). A rule names tools only, never
 * arguments, so a tool it covers is refused whatever it is asked: such a tool is not offered at all.
 */
export function denyRuleFor(denyList: readonly DenyRule[], name: string): DenyRule | undefined {
  if (META_TOOL_NAMES.has(name)) return undefined;
  return denyList.find((rule) => globMatch(rule.tool, name));
}
