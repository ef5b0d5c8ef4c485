import type { ToolGroup } from '../core/tool.js';
import type { RetrievalTool } from './retrieval-tool.js';

/** A group's tools in name order, each tool's place in it, and marks reused by every turn. */
interface NameOrder {
  readonly tools: readonly RetrievalTool[];
  readonly place: ReadonlyMap<RetrievalTool, number>;
  /** The turn (`round`) that last marked each place. */
  readonly marks: Int32Array;
  round: number;
}

/**
 * Name orders kept from earlier turns, per group: a group's tools rarely change between turns, so
 * each turn places its tools by the kept order instead of comparing names again.
 */
const orders = new WeakMap<ToolGroup, NameOrder>();

/** Tools kept in an order beyond those of the turn that (re)built it, at most (left-out tools return). */
const SPARE = 64;

/**
 * Sorts `tools` (some of `group`'s) in place by name and returns it; tools of the same name keep
 * their given order. A tool object's name never changes (as `catalog`'s cut lines assume).
 */
export function byName(group: ToolGroup, tools: RetrievalTool[]): RetrievalTool[] {
  if (tools.length < 2) return tools;
  const known = orders.get(group);
  if (known && placeBy(known, tools)) return tools;
  const order = orderOf(known, tools);
  if (order) {
    orders.set(group, order);
    if (placeBy(order, tools)) return tools;
  }
  return tools.sort(compareNames);
}

/** Puts `tools` in the order's sequence; false (nothing moved) when the order lacks one or a tool repeats. */
function placeBy(order: NameOrder, tools: RetrievalTool[]): boolean {
  // Marks instead of a fresh array per call: the catalog runs every turn, over every group.
  const { marks } = order;
  if (order.round === 0x7fffffff) {
    marks.fill(0);
    order.round = 0;
  }
  const round = ++order.round;
  for (const t of tools) {
    const at = order.place.get(t);
    if (at === undefined || marks[at] === round) return false;
    marks[at] = round;
  }
  let n = 0;
  for (let i = 0; i < order.tools.length; i += 1)
    if (marks[i] === round) tools[n++] = order.tools[i] as RetrievalTool;
  return true;
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
  return {
    tools: all,
    place: new Map(all.map((t, i) => [t, i])),
    marks: new Int32Array(all.length),
    round: 0,
  };
}

function compareNames(a: RetrievalTool, b: RetrievalTool): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
