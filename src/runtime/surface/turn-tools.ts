import type { WireTool } from '../../core/model.js';
import { catalog, catalogNote, isCore } from '../../retrieval/index.js';
import type { OfferedTool } from '../../seam/index.js';
import type { TurnContext } from '../turn/turn-context.js';
import { keepOrder, ownWireTools, type RequestToolInputs, requestTools, toolLimit } from './request-tools.js';
import { META_TOOL_NAMES, META_WIRE_TOOLS } from './tool-surface.js';

/** The tools one turn offers with full schemas, and the catalog note for the rest. */
export interface TurnTools extends RequestToolInputs {
  readonly selected: readonly OfferedTool[];
  /** True when some tools are deferred to the catalog (then the meta-tools are offered too). */
  readonly reduced: boolean;
  /** The system note listing the deferred tools ("" when nothing is deferred). */
  readonly note: string;
}

/** The turn's tools, selected the first time a step of the turn needs them. */
export function turnToolsOf(ctx: TurnContext): TurnTools {
  ctx.turnTools ??= selectTurnTools(ctx);
  return ctx.turnTools;
}

/**
 * Selects the turn's tools once per turn: core, sticky, hinted and the best ranked, within budget and
 * within the model's tool limit beside the runtime's own tools (what does not fit goes to the catalog).
 */
export function selectTurnTools(ctx: TurnContext): TurnTools {
  const { retriever, byName, offered } = ctx.surface;
  const chosen = retriever.select(
    ctx.query,
    ctx.budgetChars === undefined ? {} : { budgetChars: ctx.budgetChars },
  );
  let selected = chosen.map((t) => byName.get(t.name)).filter((t): t is OfferedTool => t !== undefined);
  const rank = new Map(retriever.lastRelevance);
  const limit = toolLimit(ctx.model);
  const runtimeCount = ownWireTools(ctx, false).length;
  if (selected.length >= offered.length && offered.length + runtimeCount <= limit) {
    return { selected: offered, reduced: false, note: '', rank };
  }
  const room = limit - runtimeCount - META_WIRE_TOOLS.length;
  if (selected.length > room) {
    const kept = new Set(
      keepOrder(selected, [], rank)
        .slice(0, Math.max(0, room))
        .map((t) => t.name),
    );
    selected = selected.filter((t) => kept.has(t.name));
  }
  const shown = new Set(selected.map((t) => t.name));
  const deferred = retriever.tools().filter((t) => !shown.has(t.name));
  const text = catalog(deferred, undefined, { relevance: retriever.lastRelevance });
  return { selected, reduced: true, note: catalogNote(text), rank };
}

/** The wire tools of one model call (see `requestTools`). */
export function wireToolsFor(ctx: TurnContext, turn: TurnTools): WireTool[] {
  return requestTools(ctx, turn).tools;
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
