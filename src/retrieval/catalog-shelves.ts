import type { ToolGroup } from '../core/tool.js';
import { MinTree } from './min-tree.js';
import { groupOf, type RetrievalTool } from './retrieval-tool.js';

/** One group's tools as the catalog lays them out: in name order, with the length of each one's line. */
export interface CatalogShelf {
  /** The group of its first tool in the order it was given. */
  readonly group: ToolGroup;
  /** Its tools in the order given, kept only when they do not all share one group object. */
  readonly given: readonly RetrievalTool[] | undefined;
  /** Its tools in name order (equal names in the order given). */
  readonly tools: readonly RetrievalTool[];
  /** Each tool's catalog line length plus its newline, in the same order. */
  readonly sizes: MinTree;
  /** Characters of all its tools' names. */
  readonly names: number;
  /** Length of its shortest tool name. */
  readonly shortest: number;
}

/** A shelf of `tools` (one group's, already in name order); `given` as `CatalogShelf.given`. */
export function shelfOf(
  group: ToolGroup,
  tools: readonly RetrievalTool[],
  sizeOf: (tool: RetrievalTool) => number,
  given?: readonly RetrievalTool[],
): CatalogShelf {
  const sizes = new Int32Array(tools.length);
  let names = 0;
  let shortest = Number.POSITIVE_INFINITY;
  tools.forEach((t, i) => {
    sizes[i] = sizeOf(t);
    names += t.name.length;
    if (t.name.length < shortest) shortest = t.name.length;
  });
  return { group, given, tools, sizes: new MinTree(sizes), names, shortest };
}

/** Where a tool sits: its shelf and its place in the shelf's name order. */
export interface ShelfPlace {
  readonly shelf: CatalogShelf;
  readonly at: number;
}

/**
 * A catalog's tools on shelves, one per group key: what every turn's catalog of deferred tools is
 * laid out from, worked out once per catalog state rather than once per turn.
 */
export class CatalogShelves {
  readonly shelves: readonly CatalogShelf[];
  private places: Map<string, ShelfPlace> | undefined;

  /** `tools` in catalog order, each name once. */
  constructor(tools: readonly RetrievalTool[], sizeOf: (tool: RetrievalTool) => number) {
    const gathered = new Map<string, RetrievalTool[]>();
    for (const t of tools) {
      const key = groupOf(t).key;
      const list = gathered.get(key);
      if (list === undefined) gathered.set(key, [t]);
      else list.push(t);
    }
    const byKey = new Map<string, CatalogShelf>();
    for (const [key, given] of gathered) {
      const group = groupOf(given[0] as RetrievalTool);
      const mixed = given.some((t) => groupOf(t) !== group);
      const named = [...given].sort((a, b) => compareNames(a.name, b.name));
      byKey.set(key, shelfOf(group, named, sizeOf, mixed ? given : undefined));
    }
    this.shelves = [...byKey.values()];
  }

  /** The shelf the tool named `name` is on and its place there; undefined when it is not on one. */
  locate(name: string): ShelfPlace | undefined {
    // Made on the first look-up, once per catalog state: a turn looks up every tool it shows and
    // every relevant one, which would otherwise be a search of a shelf of thousands each time.
    this.places ??= this.placesOfAll();
    return this.places.get(name);
  }

  private placesOfAll(): Map<string, ShelfPlace> {
    const places = new Map<string, ShelfPlace>();
    for (const shelf of this.shelves) {
      shelf.tools.forEach((t, at) => {
        places.set(t.name, { shelf, at });
      });
    }
    return places;
  }
}

/** Orders names as the catalog lists them (by UTF-16 code units). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
