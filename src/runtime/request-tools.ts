import type { ModelAdapter, WireTool } from '../core/model.js';
import { isCore } from '../retrieval/index.js';
import type { OfferedTool } from '../seam/index.js';
import { agentAllows, denyRuleFor, grantsAllow } from './gates.js';
import { runtimeWireTool } from './runtime-tool.js';
import { sendableTool } from './sendable-tool.js';
import { META_WIRE_TOOLS } from './tool-surface.js';
import type { TurnContext } from './turn-context.js';

/**
 * Most tools one request carries when the model's adapter states no limit: OpenAI's 128, the smallest
 * limit a provider documents (provider-wire.md §2.1).
 */
export const DEFAULT_MAX_TOOLS = 128;

/** How many tools one request to this model may carry. */
export function toolLimit(model: Pick<ModelAdapter, 'maxTools'>): number {
  const n = model.maxTools;
  return n !== undefined && Number.isInteger(n) && n > 0 ? n : DEFAULT_MAX_TOOLS;
}

/** True for a tool offered with its full schema every turn (never left out to make room). */
export function isCoreTool(tool: OfferedTool): boolean {
  return tool.definition.core === true || isCore({ name: tool.name });
}

/**
 * The runtime's own tools a request carries: the meta-tools when tools are deferred, and its runtime
 * tools that the agent, the run's grants and the deny-list leave it.
 */
export function ownWireTools(ctx: TurnContext, reduced: boolean): WireTool[] {
  const out: WireTool[] = reduced ? [...META_WIRE_TOOLS] : [];
  const { agent, grants, denyList } = ctx.gates;
  for (const tool of ctx.runtimeTools.values()) {
    const name = tool.definition.name;
    if (agentAllows(agent, name) && grantsAllow(grants, name) && !denyRuleFor(denyList, name))
      out.push(runtimeWireTool(tool));
  }
  return out;
}

/**
 * Tools in the order they keep their place when a request has too little room: core tools, then the
 * tools the model asked for (`asked`, oldest first, so the newest comes first here), then the rest of
 * the selection, most relevant first (`rank`; ties keep the selection's order).
 */
export function keepOrder(
  selected: readonly OfferedTool[],
  asked: readonly OfferedTool[],
  rank: ReadonlyMap<string, number>,
): OfferedTool[] {
  const core = selected.filter(isCoreTool);
  const coreNames = new Set(core.map((t) => t.name));
  const askedNames = new Set(asked.map((t) => t.name));
  const newestFirst = asked.filter((t) => !coreNames.has(t.name)).reverse();
  const rest = selected
    .filter((t) => !coreNames.has(t.name) && !askedNames.has(t.name))
    .sort((a, b) => (rank.get(b.name) ?? 0) - (rank.get(a.name) ?? 0));
  return [...core, ...newestFirst, ...rest];
}

/** The tools of one request, and which offered tools (real names) it carries with full schemas. */
export interface RequestTools {
  readonly tools: WireTool[];
  readonly carried: ReadonlySet<string>;
}

/** What `requestTools` builds a request's tools from. */
export interface RequestToolInputs {
  /** The turn's selection, in catalog order. */
  readonly selected: readonly OfferedTool[];
  /** True when tools are deferred to the catalog (the meta-tools then travel too). */
  readonly reduced: boolean;
  /** How relevant the turn's selection found each tool. */
  readonly rank: ReadonlyMap<string, number>;
}

/**
 * The wire tools of one model call: the turn's selection and the tools the model asked for
 * (`tool_schema`, unless refused), then the runtime's own tools, never more than the model's limit.
 * When they do not fit, the least relevant of the selection goes first, then the longest-ago asked for;
 * core tools, the runtime's own tools and the newest asked for keep their place.
 */
export function requestTools(
  ctx: TurnContext,
  turn: RequestToolInputs,
  activated: Iterable<string> = ctx.activated,
): RequestTools {
  const own = ownWireTools(ctx, turn.reduced);
  const asked: OfferedTool[] = [];
  for (const name of activated) {
    const tool = ctx.surface.byName.get(name);
    if (tool && !ctx.refused.has(name)) asked.push(tool);
  }
  // a tool the provider refused this turn is never sent again in it, whether selected or asked for
  const selected =
    ctx.refused.size === 0 ? turn.selected : turn.selected.filter((t) => !ctx.refused.has(t.name));
  const room = Math.max(0, toolLimit(ctx.model) - own.length);
  const carried = new Set(
    keepOrder(selected, asked, turn.rank)
      .slice(0, room)
      .map((t) => t.name),
  );
  const tools: WireTool[] = [];
  const seen = new Set<string>();
  for (const tool of [...selected, ...asked]) {
    if (!carried.has(tool.name) || seen.has(tool.name)) continue;
    seen.add(tool.name);
    tools.push(sendableTool(tool, ctx.logger));
  }
  return { tools: [...tools, ...own], carried };
}
