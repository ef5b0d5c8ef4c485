import type { ToolGroup } from '../core/tool.js';
import { type Block, type BlockParts, blockOf, firstOf, Layout, lineOf } from './catalog-layout.js';
import { type CatalogShelf, type CatalogShelves, compareNames, shelfOf } from './catalog-shelves.js';
import { byName } from './name-order.js';
import { groupOf, isOwn, type RetrievalTool } from './retrieval-tool.js';
import { sortAscending } from './sort-ascending.js';

export { CATALOG_LINE_CHARS } from './catalog-layout.js';
export { LEFT_OUT_PREFIX } from './left-out-line.js';

/** Room for the deferred catalog, in characters, last line included. */
export const CATALOG_CHARS = 6000;
/** A block's places skipped when it skips none. */
const NONE_SKIPPED: readonly number[] = [];
/** Relevance (share of the best ranked tool's score) a tool needs to be described ahead of its turn. */
export const RELEVANT_SHARE = 0.35;
/** Tools described ahead of their turn at most, however many are relevant. */
export const RELEVANT_MAX = 16;

/** How `catalog` treats this turn's request. */
export interface CatalogOptions {
  /** Relevance of tools to this request (ToolRetriever.lastRelevance); described first when > 0. */
  readonly relevance?: ReadonlyMap<string, number>;
}

/**
 * The catalog of tools a turn defers (offered by name, not schema): the platform's own groups first,
 * each with what it is for and every tool by name; then MCP servers and apps sharing what is left —
 * the tools relevant to the request described first, then one described tool per group in turn. A
 * last line names what was left out and points at tool_search. The whole text, last line included,
 * never exceeds `maxChars`; nothing deferred gives "".
 */
export function catalog(
  deferred: readonly RetrievalTool[],
  maxChars: number = CATALOG_CHARS,
  options: CatalogOptions = {},
): string {
  if (deferred.length === 0 || maxChars <= 0) return '';
  const relevance = options.relevance ?? new Map<string, number>();
  const relevant: RetrievalTool[] = [];
  const blocks = gatheredBlocks(deferred, relevance, relevant);
  return fill(blocks, relevant, maxChars, relevance);
}

/**
 * The catalog (as `catalog` makes it) of the shelved tools but `shown`: what a turn defers, laid out
 * from shelves worked out once per catalog state. It costs by the tools shown, the relevant ones and
 * the lines that fit, not by the size of the catalog.
 */
export function shelvedCatalog(
  shelves: CatalogShelves,
  shown: ReadonlySet<string>,
  relevance: ReadonlyMap<string, number>,
  maxChars: number = CATALOG_CHARS,
): string {
  if (maxChars <= 0) return '';
  const relevant: RetrievalTool[] = [];
  const picks = picksOf(shelves, shown, relevance, relevant);
  const order = byRelevance(relevance);
  const blocks: Block[] = [];
  for (const shelf of shelves.shelves) {
    const pick = picks.get(shelf);
    if (pick !== undefined && pick.skipped.length - pick.head.length >= shelf.tools.length) continue;
    const head = pick === undefined ? [] : pick.head.sort(order);
    const parts: BlockParts = {
      head,
      shelf,
      // A shelf skips a few places at most: sorted by insertion, without a comparator call per step.
      skipped: pick === undefined ? NONE_SKIPPED : sortAscending(pick.skipped),
      names: shelf.names + (pick?.names ?? 0),
      // The head's tools are picked from this shelf, so none is shorter than its shortest.
      shortestName: shelf.shortest,
    };
    const first = shelf.given?.find((t) => !shown.has(t.name));
    const group = first === undefined ? shelf.group : groupOf(first);
    blocks.push(blockOf(group, parts));
  }
  if (blocks.length === 0) return '';
  return fill(sortBlocks(blocks), relevant, maxChars, relevance);
}

/**
 * What a turn takes off each shelf: the shown tools (left out) and the relevant ones (moved to their
 * block's head, and added to `relevant`). Only shelves it takes something off are in the answer.
 */
function picksOf(
  shelves: CatalogShelves,
  shown: ReadonlySet<string>,
  relevance: ReadonlyMap<string, number>,
  relevant: RetrievalTool[],
): Map<CatalogShelf, Pick> {
  const picks = new Map<CatalogShelf, Pick>();
  const take = (name: string, toHead: boolean): void => {
    const found = shelves.locate(name);
    if (found === undefined) return;
    const t = found.shelf.tools[found.at] as RetrievalTool;
    let pick = picks.get(found.shelf);
    if (pick === undefined) {
      pick = { head: [], skipped: [], names: 0 };
      picks.set(found.shelf, pick);
    }
    pick.skipped.push(found.at);
    if (toHead) {
      pick.head.push(t);
      relevant.push(t);
    } else pick.names -= t.name.length;
  };
  for (const name of shown) take(name, false);
  for (const [name, r] of relevance) if (r > 0 && !shown.has(name)) take(name, true);
  return picks;
}

/** Steps 1–4 of the catalog over its blocks (`relevant`: the tools relevant to the request), rendered. */
function fill(
  blocks: readonly Block[],
  relevantTools: readonly RetrievalTool[],
  maxChars: number,
  relevance: ReadonlyMap<string, number>,
): string {
  const rel = (t: RetrievalTool): number => relevance.get(t.name) ?? 0;
  const layout = new Layout(blocks, maxChars);

  // 1. The platform's own groups, each in full by name; the most relevant group first (a block's
  // first tool is its most relevant).
  const own = blocks.filter((b) => b.group.own);
  const lead = (b: Block): number => {
    const first = firstOf(b);
    return first ? rel(first) : 0;
  };
  const ownByRelevance = [...own].sort((a, b) => lead(b) - lead(a) || compareNames(a.group.key, b.group.key));
  for (const b of ownByRelevance) layout.tryList(b);

  // 2. Tools relevant to this request get a description line, whatever their group.
  let top = 0;
  for (const t of relevantTools) if (rel(t) <= 1 && rel(t) > top) top = rel(t);
  const blockOfKey = new Map<string, Block>(blocks.map((b) => [b.group.key, b]));
  const relevant = relevantTools
    .filter((t) => rel(t) > 1 || (top > 0 && rel(t) >= top * RELEVANT_SHARE))
    .sort(byRelevance(relevance))
    .slice(0, RELEVANT_MAX);
  for (const t of relevant) {
    const b = blockOfKey.get(groupOf(t).key) as Block;
    layout.tryDescribe(b, b.head.indexOf(t));
  }

  // 3. Servers and apps in turn, one more described tool each per round; 4. then own groups.
  layout.roundRobin(blocks.filter((b) => !b.group.own));
  layout.roundRobin(own);

  return layout.render();
}

/** Most relevant first, the platform's own first on ties, then by name (-1, 0 or 1: a fraction would be boxed). */
function byRelevance(relevance: ReadonlyMap<string, number>): (a: RetrievalTool, b: RetrievalTool) => number {
  const rel = (t: RetrievalTool): number => relevance.get(t.name) ?? 0;
  return (a, b) =>
    Math.sign(rel(b) - rel(a)) || Number(isOwn(b)) - Number(isOwn(a)) || compareNames(a.name, b.name);
}

/**
 * The blocks of `deferred`, own groups first then by key; tools within a block most relevant first.
 * The relevant tools are added to `relevant` in the order given.
 */
function gatheredBlocks(
  deferred: readonly RetrievalTool[],
  relevance: ReadonlyMap<string, number>,
  relevant: RetrievalTool[],
): Block[] {
  // One pass: each group's relevant tools apart from the rest, and the lengths of their names.
  const byKey = new Map<string, Gathering>();
  let last: Gathering | undefined;
  for (const t of deferred) {
    const g = groupOf(t);
    // A server's tools usually come one after another: the same group object needs no look-up.
    let entry = last?.group === g ? last : byKey.get(g.key);
    if (!entry) {
      entry = { group: g, relevant: [], rest: [], names: 0, shortest: Number.POSITIVE_INFINITY };
      byKey.set(g.key, entry);
    }
    last = entry;
    if ((relevance.get(t.name) ?? 0) > 0) {
      entry.relevant.push(t);
      relevant.push(t);
    } else entry.rest.push(t);
    entry.names += t.name.length;
    if (t.name.length < entry.shortest) entry.shortest = t.name.length;
  }
  const order = byRelevance(relevance);
  const blocks: Block[] = [];
  for (const { group, relevant: head, rest, names, shortest } of byKey.values()) {
    // Tools of one group differ only by relevance and name: the few relevant ones are sorted with
    // the full order, the rest by name alone.
    const shelf = shelfOf(group, byName(group, rest), (t) => lineOf(t).length + 1);
    blocks.push(
      blockOf(group, { head: head.sort(order), shelf, skipped: [], names, shortestName: shortest }),
    );
  }
  return sortBlocks(blocks);
}

/** Own groups first, then by key. */
function sortBlocks(blocks: Block[]): Block[] {
  return blocks.sort(
    (a, b) => Number(b.group.own) - Number(a.group.own) || compareNames(a.group.key, b.group.key),
  );
}

/** What a turn takes off one shelf: its relevant tools (to the block's head) and its shown ones. */
interface Pick {
  readonly head: RetrievalTool[];
  /** Places of the shown and the relevant tools. */
  readonly skipped: number[];
  /** Less the characters of the shown tools' names. */
  names: number;
}

/** One group's tools as `gatheredBlocks` gathers them. */
interface Gathering {
  readonly group: ToolGroup;
  readonly relevant: RetrievalTool[];
  readonly rest: RetrievalTool[];
  names: number;
  shortest: number;
}
