import type { ModelAdapter, WireTool } from '../../core/model.js';
import { isCore } from '../../retrieval/index.js';
import type { OfferedTool } from '../../seam/index.js';
import { runtimeWireTool } from '../calls/runtime-tool.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import { sendableTool } from './sendable-tool.js';
import { agentAllows, denyRuleFor, grantsAllow } from './tool-access.js';
import { META_WIRE_TOOLS } from './tool-surface.js';
import type { RequestToolInputs, RequestTools, TurnTools } from './turn-tools.js';

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

/** Offered tools found core or not, kept with the offer (shared by every session that sees it). */
const coreness = new WeakMap<OfferedTool, boolean>();

/** True for a tool offered with its full schema every turn (never left out to make room). */
export function isCoreTool(tool: OfferedTool): boolean {
  let core = coreness.get(tool);
  if (core === undefined) {
    core = tool.definition.core === true || isCore({ name: tool.name });
    coreness.set(tool, core);
  }
  return core;
}

/**
 * The runtime's own tools a request carries: the meta-tools when tools are deferred, and its runtime
 * tools that the agent, the run's grants and the deny-list leave it.
 */
export function ownWireTools(env: TurnEnvironment, reduced: boolean): WireTool[] {
  const out: WireTool[] = reduced ? [...META_WIRE_TOOLS] : [];
  for (const tool of env.runtimeTools.values())
    if (carriesOwn(env, tool.definition.name)) out.push(runtimeWireTool(tool));
  return out;
}

/** How many runtime tools a request carries beside the meta-tools (`ownWireTools` counted, not built). */
export function ownToolCount(env: TurnEnvironment): number {
  let n = 0;
  for (const tool of env.runtimeTools.values()) if (carriesOwn(env, tool.definition.name)) n += 1;
  return n;
}

/** True when the agent, the run's grants and the deny-list leave a request the runtime tool `name`. */
function carriesOwn(env: TurnEnvironment, name: string): boolean {
  const { agent, grants, denyList } = env.gates;
  return agentAllows(agent, name) && grantsAllow(grants, name) && !denyRuleFor(denyList, name);
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

/**
 * The wire tools of one model call: the turn's selection and the tools the model asked for
 * (`tool_schema`, unless refused), then the runtime's own tools, never more than the model's limit.
 * When they do not fit, the least relevant of the selection goes first, then the longest-ago asked for;
 * core tools, the runtime's own tools and the newest asked for keep their place.
 */
export function requestTools(env: TurnEnvironment, state: TurnState, turn: RequestToolInputs): RequestTools {
  const own = ownWireTools(env, turn.reduced);
  // A turn's next request carries the same tools unless one was asked for or refused since, or one of
  // the runtime's own changed: the same list then, so what later steps made from it is found at once.
  const key = JSON.stringify([[...state.activated], [...state.refused]]);
  const kept = state.requestTools;
  if (kept?.turn === turn && kept.key === key && sameItems(kept.own, own)) return kept.made;
  const made = toolsOfRequest(env, state, turn, own);
  state.requestTools = { turn, key, own, made };
  return made;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** `requestTools`, worked out. */
function toolsOfRequest(
  env: TurnEnvironment,
  state: TurnState,
  turn: RequestToolInputs,
  own: WireTool[],
): RequestTools {
  const asked: OfferedTool[] = [];
  for (const name of state.activated) {
    const tool = env.surface.byName.get(name);
    if (tool && !state.refused.has(name)) asked.push(tool);
  }
  // a tool the provider refused this turn is never sent again in it, whether selected or asked for
  const selected =
    state.refused.size === 0 ? turn.selected : turn.selected.filter((t) => !state.refused.has(t.name));
  const room = Math.max(0, toolLimit(env.model) - own.length);
  // Everything fits (the usual case): nothing is left out, so there is no order of leaving out to work out.
  const fits = selected.length + asked.length <= room;
  const carried = fits
    ? undefined
    : new Set(
        keepOrder(selected, asked, turn.rank)
          .slice(0, room)
          .map((t) => t.name),
      );
  const tools: WireTool[] = [];
  const seen = new Set<string>();
  for (const list of [selected, asked]) {
    for (const tool of list) {
      if (carried?.has(tool.name) === false || seen.has(tool.name)) continue;
      seen.add(tool.name);
      tools.push(sendableTool(tool, env.logger));
    }
  }
  tools.push(...own);
  // Frozen: the list goes out with each request of the turn, and what is made from it is kept by it.
  return { tools: Object.freeze(tools), carried: carried ?? seen };
}

/** The wire tools of one model call (see `requestTools`). */
export function wireToolsFor(env: TurnEnvironment, state: TurnState, turn: TurnTools): readonly WireTool[] {
  return requestTools(env, state, turn).tools;
}
