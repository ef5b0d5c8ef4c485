import type { ToolGroup } from '../core/tool.js';
import type { CatalogShelf } from './catalog-shelves.js';
import { compareNames } from './catalog-shelves.js';
import { cutToRoom, LEFT_OUT_PREFIX, leftOutCap, leftOutLine } from './left-out-line.js';
import type { RetrievalTool } from './retrieval-tool.js';
import { sortAscending } from './sort-ascending.js';
import { cutText, firstLine } from './text-cut.js';

/** Longest description line per tool in the catalog. */
export const CATALOG_LINE_CHARS = 100;

/**
 * One group's block in the catalog, with running lengths so each step costs O(1). Its tools are its
 * head (the ones relevant to the request, most relevant first), then its shelf's in name order less
 * the places `skipped` names; a place counts the head first, then the shelf.
 */
export interface Block {
  readonly group: ToolGroup;
  readonly header: string;
  readonly head: readonly RetrievalTool[];
  readonly shelf: CatalogShelf;
  /** Places on the shelf whose tools are not in this block (offered, or in its head), ascending. */
  readonly skipped: readonly number[];
  /** How many tools the block holds. */
  readonly count: number;
  /** At most the length of its shortest tool name. */
  readonly shortestName: number;
  /** The places of its described tools. */
  readonly described: Set<number>;
  /** Own groups: listed means the header and every tool name are shown. */
  listed: boolean;
  describedLength: number;
  undescribedNames: number;
  undescribedCount: number;
}

/** What `blockOf` needs besides the group. */
export interface BlockParts {
  readonly head: readonly RetrievalTool[];
  readonly shelf: CatalogShelf;
  readonly skipped: readonly number[];
  /** Characters of all the block's tool names. */
  readonly names: number;
  readonly shortestName: number;
}

/** A block not yet filled. */
export function blockOf(group: ToolGroup, parts: BlockParts): Block {
  const count = parts.head.length + parts.shelf.tools.length - parts.skipped.length;
  return {
    group,
    header: headerOf(group),
    head: parts.head,
    shelf: parts.shelf,
    skipped: parts.skipped,
    count,
    shortestName: parts.shortestName,
    described: new Set(),
    listed: false,
    describedLength: 0,
    undescribedNames: parts.names,
    undescribedCount: count,
  };
}

/** The tool at a place of a block. */
function toolAt(b: Block, place: number): RetrievalTool {
  const { head } = b;
  return (place < head.length ? head[place] : b.shelf.tools[place - head.length]) as RetrievalTool;
}

/** A block's first tool (its most relevant). */
export function firstOf(b: Block): RetrievalTool | undefined {
  if (b.head.length > 0) return b.head[0];
  let at = 0;
  for (const s of b.skipped) {
    if (s !== at) break;
    at += 1;
  }
  return b.shelf.tools[at];
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
export function lineOf(t: RetrievalTool): string {
  let line = linesByTool.get(t);
  if (line === undefined) {
    line = lineText(t);
    linesByTool.set(t, line);
  }
  return line;
}

/** A tool's catalog line, worked out again. */
export function lineText(t: RetrievalTool): string {
  const first = firstLine(t.description, CATALOG_LINE_CHARS);
  return first ? `- ${t.name}: ${first}` : `- ${t.name}`;
}

/** A block's cursor in a round-robin fill: the place of its next try. */
interface Cursor {
  readonly b: Block;
  at: number;
}

/**
 * The catalog being filled: every step is kept only if the whole text still fits. Totals (blocks
 * shown, their characters, the left-out entries) are kept current, so a step costs O(1).
 */
export class Layout {
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

  /** Gives the tool at `place` its description line, if it fits (an own group is listed first). */
  tryDescribe(b: Block, place: number): boolean {
    if (b.described.has(place)) return true;
    const t = toolAt(b, place);
    if (b.group.own && !b.listed && !this.tryList(b)) return false;
    if (this.max - this.length() < t.name.length + 3) return false;
    const size = lineOf(t).length + 1;
    // A line longer than the room plus all that describing the tool could give back (its block's
    // left-out entry; in an own group, its name on the names line) cannot fit: refused without
    // trying it (most tries late in a fill fail).
    const ownName = b.group.own ? t.name.length + 3 : 0;
    if (size > this.max - this.length() + this.giveBack(b) + ownName) return false;
    this.describe(b, t, place, size, true);
    if (this.length() <= this.max) return true;
    this.describe(b, t, place, size, false);
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
    const servers = blocks.every((b) => !b.group.own);
    let least = 0;
    if (servers) {
      least = Number.POSITIVE_INFINITY;
      for (const b of blocks) least = Math.min(least, b.shortestName + 3);
    }
    // Each round visits only the blocks with tools left to try (most run out long before the last).
    let live: Cursor[] = blocks.map((b) => ({ b, at: 0 }));
    let passing = false;
    while (live.length > 0) {
      if (passing) {
        // The last round changed nothing: the rounds until some try fits would change nothing
        // either, so they are passed over at once (a big group's tail is not tried tool by tool).
        if (this.max - this.length() < least) return;
        const rounds = this.roundsBeforeFit(live);
        if (rounds === Number.POSITIVE_INFINITY) return;
        for (const c of live) this.pass(c, rounds);
      }
      const still: Cursor[] = [];
      let changed = false;
      for (const c of live) {
        if (this.max - this.length() < least) return;
        const at = this.next(c.b, c.at);
        if (at < 0) continue;
        if (this.tryDescribe(c.b, at)) changed = true;
        c.at = at + 1;
        still.push(c);
      }
      live = still;
      passing = servers && !changed;
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
    // Built by concatenation: the engine joins the pieces once, when the text is first read.
    let body = '';
    const left: string[] = [];
    for (const b of this.blocks) {
      const entry = entryOf(b);
      if (entry) left.push(entry);
      if (blockLength(b) === 0) continue;
      body = body === '' ? b.header : `${body}\n${b.header}`;
      const places = sortAscending([...b.described]);
      for (const place of places) body = `${body}\n${lineOf(toolAt(b, place))}`;
      if (b.group.own && b.undescribedCount > 0) {
        const names: string[] = [];
        b.head.forEach((t, place) => {
          if (!b.described.has(place)) names.push(t.name);
        });
        let s = 0;
        b.shelf.tools.forEach((t, i) => {
          if (b.skipped[s] === i) s += 1;
          else if (!b.described.has(b.head.length + i)) names.push(t.name);
        });
        body = `${body}\n- ${names.sort(compareNames).join(', ')}`;
      }
    }
    let text = body;
    if (left.length > 0) {
      const room = this.max - body.length - (body === '' ? 0 : 1);
      const last = leftOutLine(left, room) ?? LEFT_OUT_PREFIX + left.join(', ');
      text = body === '' ? last : `${body}\n${last}`;
    }
    return text.length <= this.max ? text : cutToRoom(text, this.max);
  }

  /** What describing a tool of `b` could give back at most: its left-out entry, the last line's separator or prefix. */
  private giveBack(b: Block): number {
    return entryLength(b) + 2 + (this.entries === 1 ? LEFT_OUT_PREFIX.length + 1 : 0);
  }

  /** The first place at or after `at` whose tool is in the block and not described; -1 past the last. */
  private next(b: Block, at: number): number {
    const { head, skipped } = b;
    let place = at;
    while (place < head.length && b.described.has(place)) place += 1;
    if (place < head.length) return place;
    const { tools } = b.shelf;
    let s = firstAtLeast(skipped, place - head.length);
    for (let i = place - head.length; i < tools.length; i += 1) {
      if (skipped[s] === i) s += 1;
      else if (!b.described.has(head.length + i)) return head.length + i;
    }
    return -1;
  }

  /**
   * Rounds (each one try per live block) before some block's try would fit, the room as it is now;
   * infinite when none would. A try of a server's tool fits when the room takes its name and its
   * line; what its block's totals become does not depend on which of its tools it is, so one bound
   * on the line's length per block decides, found by the block's sizes rather than tool by tool.
   */
  private roundsBeforeFit(live: readonly Cursor[]): number {
    let best = Number.POSITIVE_INFINITY;
    for (const c of live) best = Math.min(best, this.triesBeforeFit(c, best));
    return best;
  }

  /** Tries of `c`'s block before one that would fit now; infinite when none would or it is `enough` or more. */
  private triesBeforeFit(c: Cursor, enough: number): number {
    const b = c.b;
    const room = this.max - this.length();
    const longest = Math.min(this.max - this.lengthWithOneMore(b), room + this.giveBack(b));
    const fits = (t: RetrievalTool, size: number): boolean => t.name.length + 3 <= room && size <= longest;
    const { head, skipped } = b;
    let tries = 0;
    let place = c.at;
    for (; place < head.length; place += 1) {
      if (b.described.has(place)) continue;
      const t = head[place] as RetrievalTool;
      if (tries >= enough) return Number.POSITIVE_INFINITY;
      if (fits(t, lineOf(t).length + 1)) return tries;
      tries += 1;
    }
    const { tools, sizes } = b.shelf;
    const from = Math.max(0, place - head.length);
    const before = firstAtLeast(skipped, from);
    for (let i = from; ; i += 1) {
      i = sizes.firstAtMost(i, longest);
      if (i < 0) return Number.POSITIVE_INFINITY;
      const on = firstAtLeast(skipped, i);
      const passed = tries + (i - from) - (on - before);
      if (passed >= enough) return Number.POSITIVE_INFINITY;
      const t = tools[i] as RetrievalTool;
      if (skipped[on] !== i && !b.described.has(head.length + i) && fits(t, sizes.at(i))) return passed;
    }
  }

  /** Moves `c` past `tries` tries that would not fit (past its last tool when it has fewer). */
  private pass(c: Cursor, tries: number): void {
    const b = c.b;
    const { head, skipped } = b;
    let left = tries;
    let place = c.at;
    for (; place < head.length && left > 0; place += 1) {
      if (!b.described.has(place)) left -= 1;
    }
    if (left === 0) {
      c.at = place;
      return;
    }
    // On the shelf nothing ahead of a cursor is described yet: only skipped places are stepped over.
    let end = place - head.length + left;
    for (let s = firstAtLeast(skipped, place - head.length); s < skipped.length; s += 1) {
      if ((skipped[s] as number) < end) end += 1;
      else break;
    }
    c.at = head.length + Math.min(end, b.shelf.tools.length);
  }

  /** The length once one more of `b`'s tools, with a line of no characters, were described. */
  private lengthWithOneMore(b: Block): number {
    this.count(b, -1);
    b.described.add(-1);
    b.undescribedCount -= 1;
    this.count(b, 1);
    const length = this.length();
    this.count(b, -1);
    b.described.delete(-1);
    b.undescribedCount += 1;
    this.count(b, 1);
    return length;
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
  private describe(b: Block, t: RetrievalTool, place: number, size: number, on: boolean): void {
    this.count(b, -1);
    const sign = on ? 1 : -1;
    if (on) b.described.add(place);
    else b.described.delete(place);
    b.describedLength += sign * size;
    b.undescribedNames -= sign * t.name.length;
    b.undescribedCount -= sign;
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

/** The first index of `sorted` (ascending) whose value is at least `value`. */
function firstAtLeast(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A block's entry on the left-out line ("" when nothing of it is left out). */
function entryOf(b: Block): string {
  const n = b.count;
  const whole = `${b.group.key} (${n} ${n === 1 ? 'tool' : 'tools'})`;
  if (b.group.own) return b.listed ? '' : whole;
  if (b.described.size === 0) return whole;
  return b.undescribedCount > 0 ? `${b.group.key} (+${b.undescribedCount} more)` : '';
}

/** Length of `entryOf(b)`, worked out without building the text (the totals ask for it often). */
function entryLength(b: Block): number {
  const n = b.count;
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
