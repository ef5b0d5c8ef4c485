import type { ToolGroup } from '../core/tool.js';
import { groupOf, type RetrievalTool } from './retrieval-tool.js';
import { firstLine } from './text-cut.js';

/** Room for the deferred catalog, in characters, last line included. */
export const CATALOG_CHARS = 6000;
/** Longest description line per tool in the catalog. */
export const CATALOG_LINE_CHARS = 100;
/** Relevance (share of the best ranked tool's score) a tool needs to be described ahead of its turn. */
export const RELEVANT_SHARE = 0.35;
/** Tools described ahead of their turn at most, however many are relevant. */
export const RELEVANT_MAX = 16;

/** The opening of the catalog's last line (what is left out follows). */
export const LEFT_OUT_PREFIX = '[not listed here for room; tool_search("what you need") finds any of them] ';

/** How `catalog` treats this turn's request. */
export interface CatalogOptions {
  /** Relevance of tools to this request (ToolRetriever.lastRelevance); described first when > 0. */
  readonly relevance?: ReadonlyMap<string, number>;
}

/** One group's block in the catalog, with running lengths so each step costs O(groups). */
interface Block {
  readonly group: ToolGroup;
  readonly header: string;
  /** Tools in the order their lines appear: most relevant first, then by name. */
  readonly tools: readonly RetrievalTool[];
  readonly lines: Map<string, string>;
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
  const byRelevance = (a: RetrievalTool, b: RetrievalTool): number =>
    rel(b) - rel(a) || Number(groupOf(b).own) - Number(groupOf(a).own) || compareText(a.name, b.name);

  const blocks = makeBlocks(deferred, byRelevance);
  const layout = new Layout(blocks, maxChars);

  // 1. The platform's own groups, each in full by name; the most relevant group first.
  const own = blocks.filter((b) => b.group.own);
  const ownByRelevance = [...own].sort(
    (a, b) => maxRelevance(b, rel) - maxRelevance(a, rel) || compareText(a.group.key, b.group.key),
  );
  for (const b of ownByRelevance) layout.tryList(b);

  // 2. Tools relevant to this request get a description line, whatever their group.
  const top = Math.max(0, ...deferred.map(rel).filter((r) => r <= 1));
  const relevant = deferred
    .filter((t) => rel(t) > 1 || (top > 0 && rel(t) >= top * RELEVANT_SHARE))
    .sort(byRelevance)
    .slice(0, RELEVANT_MAX);
  const blockOf = new Map<string, Block>();
  for (const b of blocks) for (const t of b.tools) blockOf.set(t.name, b);
  for (const t of relevant) layout.tryDescribe(blockOf.get(t.name) as Block, t);

  // 3. Servers and apps in turn, one more described tool each per round; 4. then own groups.
  layout.roundRobin(blocks.filter((b) => !b.group.own));
  layout.roundRobin(own);

  return layout.render();
}

/** The blocks, own groups first then by key; tools within a block most relevant first. */
function makeBlocks(
  deferred: readonly RetrievalTool[],
  order: (a: RetrievalTool, b: RetrievalTool) => number,
): Block[] {
  const byKey = new Map<string, { group: ToolGroup; tools: RetrievalTool[] }>();
  for (const t of deferred) {
    const g = groupOf(t);
    const entry = byKey.get(g.key) ?? { group: g, tools: [] };
    entry.tools.push(t);
    byKey.set(g.key, entry);
  }
  const blocks: Block[] = [];
  for (const { group, tools } of byKey.values()) {
    tools.sort(order);
    const purpose = group.purpose.trim();
    const lines = new Map<string, string>();
    let names = 0;
    for (const t of tools) {
      const line = firstLine(t.description, CATALOG_LINE_CHARS);
      lines.set(t.name, line ? `- ${t.name}: ${line}` : `- ${t.name}`);
      names += t.name.length;
    }
    blocks.push({
      group,
      header: purpose ? `[${group.key}] ${purpose}` : `[${group.key}]`,
      tools,
      lines,
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

/** The catalog being filled: every step is kept only if the whole text still fits. */
class Layout {
  constructor(
    private readonly blocks: readonly Block[],
    private readonly max: number,
  ) {}

  /** Lists an own group in full by name, if it fits. */
  tryList(b: Block): boolean {
    if (b.listed) return true;
    b.listed = true;
    if (this.length() <= this.max) return true;
    b.listed = false;
    return false;
  }

  /** Gives a tool its description line, if it fits (an own group is listed first). */
  tryDescribe(b: Block, t: RetrievalTool): boolean {
    if (b.described.has(t.name)) return true;
    if (b.group.own && !b.listed && !this.tryList(b)) return false;
    const line = b.lines.get(t.name) as string;
    b.described.add(t.name);
    b.describedLength += line.length + 1;
    b.undescribedNames -= t.name.length;
    b.undescribedCount -= 1;
    if (this.length() <= this.max) return true;
    b.described.delete(t.name);
    b.describedLength -= line.length + 1;
    b.undescribedNames += t.name.length;
    b.undescribedCount += 1;
    return false;
  }

  /** One more described tool per block per round, until nothing more fits. */
  roundRobin(blocks: readonly Block[]): void {
    const queues = blocks.map((b) => ({ b, next: 0 }));
    let active = queues;
    while (active.length > 0) {
      const still: typeof active = [];
      for (const q of active) {
        while (q.next < q.b.tools.length && q.b.described.has((q.b.tools[q.next] as RetrievalTool).name))
          q.next += 1;
        if (q.next >= q.b.tools.length) continue;
        const t = q.b.tools[q.next] as RetrievalTool;
        q.next += 1;
        // A tool whose line does not fit is skipped; a shorter one may still fit on the next round.
        this.tryDescribe(q.b, t);
        still.push(q);
      }
      active = still;
    }
  }

  /** Exact length of `render()`, computed from the running lengths. */
  length(): number {
    let total = 0;
    let shown = 0;
    for (const b of this.blocks) {
      const len = blockLength(b);
      if (len === 0) continue;
      total += len;
      shown += 1;
    }
    total += Math.max(0, shown - 1);
    const last = this.lastLine();
    if (last) total += (shown > 0 ? 1 : 0) + last.length;
    return total;
  }

  /** The catalog text; cut as a last resort if it somehow exceeds the room. */
  render(): string {
    const parts: string[] = [];
    for (const b of this.blocks) {
      if (blockLength(b) === 0) continue;
      const lines = [b.header];
      for (const t of b.tools) if (b.described.has(t.name)) lines.push(b.lines.get(t.name) as string);
      if (b.group.own && b.undescribedCount > 0) {
        const names = b.tools.filter((t) => !b.described.has(t.name)).map((t) => t.name);
        lines.push(`- ${names.sort(compareText).join(', ')}`);
      }
      parts.push(lines.join('\n'));
    }
    const last = this.lastLine();
    if (last) parts.push(last);
    const text = parts.join('\n');
    return text.length <= this.max ? text : cutToRoom(text, this.max);
  }

  /** What is left out, or "" when every deferred tool is at least named. */
  private lastLine(): string {
    const entries: string[] = [];
    for (const b of this.blocks) {
      const n = b.tools.length;
      if (b.group.own) {
        if (!b.listed) entries.push(`${b.group.key} (${n} ${n === 1 ? 'tool' : 'tools'})`);
      } else if (b.described.size === 0) {
        entries.push(`${b.group.key} (${n} ${n === 1 ? 'tool' : 'tools'})`);
      } else if (b.undescribedCount > 0) {
        entries.push(`${b.group.key} (+${b.undescribedCount} more)`);
      }
    }
    return entries.length === 0 ? '' : LEFT_OUT_PREFIX + entries.join(', ');
  }
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

function maxRelevance(b: Block, rel: (t: RetrievalTool) => number): number {
  return Math.max(0, ...b.tools.map(rel));
}

/** Cuts text to the room at the last ", " that fits and marks the cut; "" when not even the prefix fits. */
function cutToRoom(text: string, max: number): string {
  if (max <= LEFT_OUT_PREFIX.length) return '';
  const room = text.slice(0, max - 1);
  const comma = room.lastIndexOf(', ');
  return `${comma > 0 ? room.slice(0, comma) : room}…`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
