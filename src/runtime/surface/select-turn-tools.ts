import { catalogNote } from '../../retrieval/index.js';
import type { OfferedTool } from '../../seam/index.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import { keepOrder, ownToolCount, toolLimit } from './request-tools.js';
import { META_WIRE_TOOLS } from './tool-surface.js';
import type { TurnTools } from './turn-tools.js';

/** The turn's tools, selected the first time a step of the turn needs them (calls side by side share one selection). */
export function turnToolsOf(env: TurnEnvironment, state: TurnState): Promise<TurnTools> {
  state.turnTools ??= selectTurnTools(env);
  return state.turnTools;
}

/**
 * Selects the turn's tools once per turn: core, sticky, hinted and the best ranked, within budget and
 * within the model's tool limit beside the runtime's own tools (what does not fit goes to the catalog).
 */
export async function selectTurnTools(env: TurnEnvironment): Promise<TurnTools> {
  const { retriever, selector, byName, offered } = env.surface;
  const chosen = await selector.select(
    retriever,
    env.query,
    env.budgetChars === undefined ? {} : { budgetChars: env.budgetChars },
  );
  let selected = chosen.tools.map((t) => byName.get(t.name)).filter((t): t is OfferedTool => t !== undefined);
  const rank = chosen.relevance;
  const limit = toolLimit(env.model);
  const runtimeCount = ownToolCount(env);
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
  const text = retriever.deferredCatalog(shown, rank);
  return { selected, reduced: true, note: catalogNote(text), rank };
}
