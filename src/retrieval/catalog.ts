import type { ToolGroup } from '../core/tool.js';
import { cutToRoom, LEFT_OUT_PREFIX, leftOutCap, leftOutLine } from './left-out-line.js';
import { byName } from './name-order.js';
import { groupOf, isOwn, type RetrievalTool } from './retrieval-tool.js';
import { cutText, firstLine } from './text-cut.js';

/** Room for the deferred catalog, in characters, last line included. */
export const CATALOG_CHARS = 6000;
/** Longest description line per tool in the catalog. */
export const CATALOG_LINE_CHARS = 100;
/** Relevance (share of the best ranked tool's score) a tool needs to be described ahead of its turn. */
export const RELEVANT_SHARE = 0.35;
/** Tools described ahead of their turn at most, however many are relevant. */
export const RELEVANT_MAX = 16;

export { LEFT_OUT_PREFIX } from './left-out-line.js';

/** How `catalog` treats this turn's request. */
export interface CatalogOptions {
  /** Relevance of tools to this request (ToolRetriever.lastRelevance); described first when > 0. */
  readonly relevance?: ReadonlyMap<string, number>;
}

/** One group's block in the catalog, with running lengths so each step costs O(1). */
interface Block {
  readonly group: ToolGroup;
  readonly header: string;
  /** Tools in the order their lines appear: most relevant first, then by name. */
  readonly tools: readonly RetrievalTool[];
  /** Length of its shortest tool name. */
  readonly shortestName: number;
  readonly described: Set<string>;
  /** Own groups: listed means the header and every tool name are shown. */
  listed: boolean;
  describedLength: number;
  undescribedNames: number;
  undescribedCount: number;
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
  const rel = (t: RetrievalTool): number => relevance.get(t.name) ?? 0;
  // -1, 0 or 1 (a fractional difference would be boxed on every call from the sort).
  const byRelevance = (a: RetrievalTool, b: RetrievalTool): number =>
    Math.sign(rel(b) - rel(a)) || Number(isOwn(b)) - Number(isOwn(a)) || compareText(a.name, b.name);

  const relevantTools: RetrievalTool[] = [];
  const blocks = makeBlocks(deferred, byRelevance, (t) => {
    if (rel(t) <= 0) return false;
    relevantTools.push(t);
    return true;
  });
  const layout = new Layout(blocks, maxChars);

  // 1. The platform's own groups, each in full by name; the most relevant group first (a block's
  // first tool is its most relevant).
  const own = blocks.filter((b) => b.group.own);
  const lead = (b: Block): number => (b.tools[0] ? rel(b.tools[0]) : 0);
  const ownByRelevance = [...own].sort((a, b) => lead(b) - lead(a) || compareText(a.group.key, b.group.key));
  for (const b of ownByRelevance) layout.tryList(b);

  // 2. Tools relevant to this request get a description line, whatever their group.
  let top = 0;
  for (const t of relevantTools) if (rel(t) <= 1 && rel(t) > top) top = rel(t);
  const blockOf = new Map<string, Block>(blocks.map((b) => [b.group.key, b]));
  const relevant = relevantTools
    .filter((t) => rel(t) > 1 || (top > 0 && rel(t) >= top * RELEVANT_SHARE))
    .sort(byRelevance)
    .slice(0, RELEVANT_MAX);
  for (const t of relevant) layout.tryDescribe(blockOf.get(groupOf(t).key) as Block, t);

  // 3. Servers and apps in turn, one more described tool each per round; 4. then own groups.
  layout.roundRobin(blocks.filter((b) => !b.group.own));
  layout.roundRobin(own);

  return layout.render();
}

/** The blocks, own groups first then by key; tools within a block most relevant first. */
function makeBlocks(
  deferred: readonly RetrievalTool[],
  order: (a: RetrievalTool, b: RetrievalTool) => number,
  isRelevant: (t: RetrievalTool) => boolean,
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
    (isRelevant(t) ? entry.relevant : entry.rest).push(t);
    entry.names += t.name.length;
    if (t.name.length < entry.shortest) entry.shortest = t.name.length;
  }
  const blocks: Block[] = [];
  for (const { group, relevant, rest, names, shortest } of byKey.values()) {
    // Tools of one group differ only by relevance and name: the few relevant ones are sorted with
    // the full order, the rest by name alone.
    relevant.sort(order);
    const named = byName(group, rest);
    const tools = relevant.length === 0 ? named : relevant.concat(named);
    blocks.push({
      group,
      header: headerOf(group),
      tools,
      shortestName: shortest,
      described: new Set(),
      listed: false,
      describedLength: 0,
      undescribedNames: names,
      undescribedCount: tools.length,
    });
  }
  return blocks.sort(
    (a, b) => Number(b.group.own) - Number(a.group.own) || compareText(a.group.key, b.group.key),
  );
}

/** One group's tools as `makeBlocks` gathers them. */
interface Gathering {
  readonly group: ToolGroup;
  readonly relevant: RetrievalTool[];
  readonly rest: RetrievalTool[];
  names: number;
  shortest: number;
}

/** Group headers worked out before: a group's key and purpose do not change. */
const headers = new WeakMap<ToolGroup, string>();

/** A block's first line: the group's key and what it is for. */
function headerOf(group: ToolGroup): string {
  let header = headers.get(group);
  if (header === undefined) {
    const purpose = cutText(group.purpose ?? '', CATALOG_LINE_CHARS);
    header = purpose ? `[${group.key}] ${purpose}` : `[${group.key}]`;
    headers.set(group, header);
  }
  return header;
}

/** Catalog lines of tools seen before: a tool (its name and description fixed) is cut once, not every turn. */
const linesByTool = new WeakMap<RetrievalTool, string>();

/** A tool's catalog line. */
function lineOf(t: RetrievalTool): string {
  let line = linesByTool.get(t);
  if (line === undefined) {
    const first = firstLine(t.description, CATALOG_LINE_CHARS);
    line = first ? `- ${t.name}: ${first}` : `- ${t.name}`;
    linesByTool.set(t, line);
  }
  return line;
}

/**
 * The catalog being filled: every step is kept only if the whole text still fits. Totals (blocks
 * shown, their characters, the left-out entries) are kept current, so a step costs O(1).
 */
class Layout {
  private blockChars = 0;
  private shown = 0;
  private entryChars = 0;
  private entries = 0;
  /** What the last line is counted at, at most (see `leftOutCap`). */
  private readonly lastCap: number;

  constructor(
    private readonly blocks: readonly Block[],
    private readonly max: number,
  ) {
    for (const b of blocks) this.count(b, 1);
    this.lastCap = leftOutCap(max, blocks.length);
  }

  /** Lists an own group in full by name, if it fits. */
  tryList(b: Block): boolean {
    if (b.listed) return true;
    this.list(b, true);
    if (this.length() <= this.max) return true;
    this.list(b, false);
    return false;
  }

  /** Gives a tool its description line, if it fits (an own group is listed first). */
  tryDescribe(b: Block, t: RetrievalTool): boolean {
    if (b.described.has(t.name)) return true;
    if (b.group.own && !b.listed && !this.tryList(b)) return false;
    if (this.max - this.length() < t.name.length + 3) return false;
    const size = lineOf(t).length + 1;
    // A line longer than the room plus all that describing the tool could give back (its block's
    // left-out entry; in an own group, its name on the names line) cannot fit: refused without
    // trying it (most tries late in a fill fail).
    const ownName = b.group.own ? t.name.length + 3 : 0;
    const giveBack = entryLength(b) + 2 + ownName + (this.entries === 1 ? LEFT_OUT_PREFIX.length + 1 : 0);
    if (size > this.max - this.length() + giveBack) return false;
    this.describe(b, t, size, true);
    if (this.length() <= this.max) return true;
    this.describe(b, t, size, false);
    return false;
  }

  /**
   * One more described tool per block per round. A tool whose line does not fit is passed over (a
   * shorter one may follow, in its block or another); the fill ends when every block's tools have
   * been tried.
   */
  roundRobin(blocks: readonly Block[]): void {
    // The shortest line any tool here could take: once less room is left, no try can succeed.
    // Own groups are left out of this: a try there may list the group first, which a line's length
    // does not bound.
    let least = 0;
    if (blocks.every((b) => !b.group.own)) {
      least = Number.POSITIVE_INFINITY;
      for (const b of blocks) least = Math.min(least, b.shortestName + 3);
    }
    // Each round visits only the blocks with tools left to try (most run out long before the last).
    let live = blocks.map((b) => ({ b, at: 0 }));
    while (live.length > 0) {
      const still: typeof live = [];
      for (const entry of live) {
        if (this.max - this.length() < least) return;
        const { b } = entry;
        let at = entry.at;
        while (at < b.tools.length && b.described.has((b.tools[at] as RetrievalTool).name)) at += 1;
        if (at >= b.tools.length) continue;
        this.tryDescribe(b, b.tools[at] as RetrievalTool);
        entry.at = at + 1;
        still.push(entry);
      }
      live = still;
    }
  }

  /** Length of the rendered text: exact, or an upper bound while the last line counts the rest. */
  length(): number {
    const whole = this.entries === 0 ? 0 : LEFT_OUT_PREFIX.length + this.entryChars + 2 * (this.entries - 1);
    const last = Math.min(whole, this.lastCap);
    return this.blockChars + Math.max(0, this.shown - 1) + (last > 0 ? (this.shown > 0 ? 1 : 0) + last : 0);
  }

  /** The catalog text; cut as a last resort if it somehow exceeds the room. */
  render(): string {
    const parts: string[] = [];
    const left: string[] = [];
    for (const b of this.blocks) {
      const entry = entryOf(b);
      if (entry) left.push(entry);
      if (blockLength(b) === 0) continue;
      const lines = [b.header];
      // Described tools sit mostly at the head of a block: the scan stops at the last one.
      let unseen = b.described.size;
      for (let i = 0; unseen > 0 && i < b.tools.length; i += 1) {
        const t = b.tools[i] as RetrievalTool;
        if (b.described.has(t.name)) {
          lines.push(lineOf(t));
          unseen -= 1;
        }
      }
      if (b.group.own && b.undescribedCount > 0) {
        const names = b.tools.filter((t) => !b.described.has(t.name)).map((t) => t.name);
        lines.push(`- ${names.sort(compareText).join(', ')}`);
      }
      parts.push(lines.join('\n'));
    }
    const body = parts.join('\n');
    let text = body;
    if (left.length > 0) {
      const room = this.max - body.length - (body === '' ? 0 : 1);
      const last = leftOutLine(left, room) ?? LEFT_OUT_PREFIX + left.join(', ');
      text = body === '' ? last : `${body}\n${last}`;
    }
    return text.length <= this.max ? text : cutToRoom(text, this.max);
  }

  // The changes below take no callback: a closure over a try's values would be allocated on every
  // try, most of which fail before changing anything.

  /** Lists an own group (or not), keeping the totals current. */
  private list(b: Block, on: boolean): void {
    this.count(b, -1);
    b.listed = on;
    this.count(b, 1);
  }

  /** Describes a tool (or not), keeping the totals current. */
  private describe(b: Block, t: RetrievalTool, size: number, on: boolean): void {
    this.count(b, -1);
    describe(b, t, size, on);
    this.count(b, 1);
  }

  private count(b: Block, sign: 1 | -1): void {
    const len = blockLength(b);
    if (len > 0) {
      this.blockChars += sign * len;
      this.shown += sign;
    }
    const entry = entryLength(b);
    if (entry > 0) {
      this.entryChars += sign * entry;
      this.entries += sign;
    }
  }
}

/** Marks a tool described (or not), moving its name between the described lines and the name list. */
function describe(b: Block, t: RetrievalTool, size: number, on: boolean): void {
  const sign = on ? 1 : -1;
  if (on) b.described.add(t.name);
  else b.described.delete(t.name);
  b.describedLength += sign * size;
  b.undescribedNames -= sign * t.name.length;
  b.undescribedCount -= sign;
}

/** A block's entry on the left-out line ("" when nothing of it is left out). */
function entryOf(b: Block): string {
  const n = b.tools.length;
  const whole = `${b.group.key} (${n} ${n === 1 ? 'tool' : 'tools'})`;
  if (b.group.own) return b.listed ? '' : whole;
  if (b.described.size === 0) return whole;
  return b.undescribedCount > 0 ? `${b.group.key} (+${b.undescribedCount} more)` : '';
}

/** Length of `entryOf(b)`, worked out without building the text (the totals ask for it often). */
function entryLength(b: Block): number {
  const n = b.tools.length;
  const key = b.group.key.length;
  // "<key> (<n> tool|tools)" or "<key> (+<n> more)"
  const whole = key + 2 + digits(n) + (n === 1 ? 5 : 6) + 1;
  if (b.group.own) return b.listed ? 0 : whole;
  if (b.described.size === 0) return whole;
  return b.undescribedCount > 0 ? key + 3 + digits(b.undescribedCount) + 6 : 0;
}

/** Decimal digits of a count (worked out, not printed: the totals ask for it on every try). */
function digits(n: number): number {
  let d = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) d += 1;
  return d;
}

/** Characters a block renders to (0 when it is not shown). */
function blockLength(b: Block): number {
  if (b.group.own) {
    if (!b.listed) return 0;
    const names = b.undescribedCount > 0 ? 3 + b.undescribedNames + 2 * (b.undescribedCount - 1) : 0;
    return b.header.length + b.describedLength + names;
  }
  return b.described.size === 0 ? 0 : b.header.length + b.describedLength;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
