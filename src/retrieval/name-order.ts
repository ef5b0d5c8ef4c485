import type { ToolGroup } from '../core/tool.js';
import type { RetrievalTool } from './retrieval-tool.js';

/** A group's tools in name order, and each tool's place in it. */
interface NameOrder {
  readonly tools: readonly RetrievalTool[];
  readonly place: ReadonlyMap<RetrievalTool, number>;
}

/**
 * Name orders kept from earlier turns, per group: a group's tools rarely change between turns, so
 * each turn places its tools by the kept order instead of comparing names again.
 */
const orders = new WeakMap<ToolGroup, NameOrder>();

/** Tools kept in an order beyond those of the turn that (re)built it, at most (left-out tools return). */
const SPARE = 64;

/**
 * `tools` (some of `group`'s) in name order; tools of the same name keep their given order. A tool
 * object's name never changes (as `catalog`'s cut lines assume).
 */
export function byName(group: ToolGroup, tools: readonly RetrievalTool[]): RetrievalTool[] {
  if (tools.length < 2) return [...tools];
  const known = orders.get(group);
  const placed = known && placeBy(known, tools);
  if (placed) return placed;
  const order = orderOf(known, tools);
  if (order) {
    orders.set(group, order);
    const again = placeBy(order, tools);
    if (again) return again;
  }
  return [...tools].sort(compareNames);
}

/** `tools` in the order's sequence; undefined when the order lacks one of them or a tool repeats. */
function placeBy(order: NameOrder, tools: readonly RetrievalTool[]): RetrievalTool[] | undefined {
  const slots: (RetrievalTool | undefined)[] = new Array(order.tools.length);
  for (const t of tools) {
    const at = order.place.get(t);
    if (at === undefined || slots[at] !== undefined) return undefined;
    slots[at] = t;
  }
  const out: RetrievalTool[] = [];
  for (const t of slots) if (t !== undefined) out.push(t);
  return out;
}

/**
 * The order of `tools` and of the earlier order's tools (those selected this turn still count),
 * minus any an equally named tool replaced; undefined when two of `tools` share a name (their given
 * order, which a kept order cannot hold, decides).
 */
function orderOf(known: NameOrder | undefined, tools: readonly RetrievalTool[]): NameOrder | undefined {
  const names = new Set(tools.map((t) => t.name));
  if (names.size < tools.length) return undefined;
  const all = [...tools];
  if (known && known.tools.length <= tools.length + SPARE) {
    const given = new Set(tools);
    for (const t of known.tools) if (!given.has(t) && !names.has(t.name)) all.push(t);
  }
  all.sort(compareNames);
  return { tools: all, place: new Map(all.map((t, i) => [t, i])) };
}

function compareNames(a: RetrievalTool, b: RetrievalTool): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
