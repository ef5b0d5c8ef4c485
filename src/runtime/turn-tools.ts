import type { WireTool } from '../core/model.js';
import { catalog, catalogNote, isCore } from '../retrieval/index.js';
import type { OfferedTool } from '../seam/index.js';
import { agentAllows, grantsAllow } from './gates.js';
import { runtimeWireTool } from './runtime-tool.js';
import { META_TOOL_NAMES, META_WIRE_TOOLS } from './tool-surface.js';
import type { TurnContext } from './turn-context.js';

/** The tools one turn offers with full schemas, and the catalog note for the rest. */
export interface TurnTools {
  readonly selected: readonly OfferedTool[];
  /** True when some tools are deferred to the catalog (then the meta-tools are offered too). */
  readonly reduced: boolean;
  /** The system note listing the deferred tools ("" when nothing is deferred). */
  readonly note: string;
}

/** Selects the turn's tools once per turn: core, sticky, hinted and the best ranked, within budget. */
export function selectTurnTools(ctx: TurnContext): TurnTools {
  const { retriever, byName, offered } = ctx.surface;
  const chosen = retriever.select(
    ctx.query,
    ctx.budgetChars === undefined ? {} : { budgetChars: ctx.budgetChars },
  );
  const selected = chosen.map((t) => byName.get(t.name)).filter((t): t is OfferedTool => t !== undefined);
  if (selected.length >= offered.length) return { selected: offered, reduced: false, note: '' };
  const shown = new Set(selected.map((t) => t.name));
  const deferred = retriever.tools().filter((t) => !shown.has(t.name));
  const text = catalog(deferred, undefined, { relevance: retriever.lastRelevance });
  return { selected, reduced: true, note: catalogNote(text) };
}

/** The wire tools of one model call: the turn's selection, tools activated by tool_schema (unless refused), the meta-tools. */
export function wireToolsFor(ctx: TurnContext, turn: TurnTools): WireTool[] {
  const out = turn.selected.map((t) => t.wire);
  const have = new Set(turn.selected.map((t) => t.name));
  for (const name of ctx.activated) {
    const tool = ctx.surface.byName.get(name);
    if (tool && !have.has(name) && !ctx.refused.has(name)) {
      out.push(tool.wire);
      have.add(name);
    }
  }
  if (turn.reduced) out.push(...META_WIRE_TOOLS);
  for (const tool of ctx.runtimeTools.values()) {
    const name = tool.definition.name;
    if (agentAllows(ctx.gates.agent, name) && grantsAllow(ctx.gates.grants, name))
      out.push(runtimeWireTool(tool));
  }
  return out;
}

/** Maps a wire name of this request back to its tool, and whether the person may switch it off. */
export function rejectedToolOf(
  ctx: TurnContext,
  wireName: string,
): { name: string; canTurnOff: boolean } | undefined {
  const own = META_TOOL_NAMES.has(wireName) || ctx.runtimeTools.has(wireName);
  const real = ctx.surface.wireToReal.get(wireName) ?? (own ? wireName : undefined);
  if (real === undefined) return undefined;
  const def = ctx.surface.byName.get(real)?.definition;
  const locked = own || def?.core === true || (def?.group?.own === true && isCore({ name: real }));
  return { name: real, canTurnOff: !locked };
}
