import { lineText } from './catalog-layout.js';
import { CatalogShelves } from './catalog-shelves.js';
import { isCore } from './core-tools.js';
import type { DenseQuery } from './dense-fusion.js';
import { Ranker } from './ranker.js';
import { DEFAULT_RANKING } from './ranking-settings.js';
import { platformFirst, type RetrievalTool, sameTool } from './retrieval-tool.js';
import {
  DEFAULT_K,
  type RetrieverOptions,
  SEARCH_DESCRIPTION_CHARS,
  type SearchHit,
  type SearchOptions,
} from './retriever-options.js';
import { fragmentMatcher, fragmentNames, type NameParts, nameParts } from './structural-hints.js';
import { cutText } from './text-cut.js';
import { ToolIndex } from './tool-index.js';
import { descriptionOf } from './tool-text.js';
import { ToolVectors } from './tool-vectors.js';
import { toolsNamed } from './tools-named.js';
import type { Ranked } from './top-k.js';

/** Hint fragment sets whose matching tools are remembered at most (the memory starts over past it). */
const MAX_HINTED_SETS = 256;

/** The tools a set of hint fragments points at (see `ToolCatalog.hintedTools`). */
export interface HintedTools {
  /** The platform's own first, then by name. */
  readonly tools: readonly RetrievalTool[];
  readonly names: ReadonlySet<string>;
}

/** What is worked out from the catalog as one filter of it sees it, for one catalog state. */
interface Seen {
  readonly generation: number;
  /** The tools the filter passes, in catalog order. */
  readonly tools: readonly RetrievalTool[];
  /** The same on shelves for the deferred catalog, made when first asked for. */
  shelves: CatalogShelves | undefined;
}

/**
 * The part of retrieval every session seeing the same tools shares: the incremental index, the
 * catalog order, the tools' vectors, which tools are core, and what is worked out from them (tie
 * ranks, name parts, tools matching hint fragments). What one session called or was offered lives in
 * its `CatalogView`. The index is filled when a ranking first needs it: a catalog whose tools all fit
 * in one request (a CLI with the built-in tools) never ranks, and its process never reads their words.
 */
export class ToolCatalog {
  readonly k: number;
  /** Told when a selection fails and every tool is offered instead (for the log). */
  readonly onFailOpen: ((error: unknown) => void) | undefined;
  private readonly index = new ToolIndex();
  /** The catalog's tools by name; the index holds the same once it is filled. */
  private readonly tools = new Map<string, RetrievalTool>();
  private filled = false;
  private readonly ranker: Ranker;
  /** Catalog order: the order tools were first added. */
  private readonly order = new Map<string, number>();
  private nextOrder = 0;
  private ordered: RetrievalTool[] | undefined;
  private tieRanks: Int32Array | undefined;
  private readonly hintedBy = new Map<string, HintedTools>();
  private readonly coreNames = new Set<string>();
  private readonly partsByName = new Map<string, NameParts>();
  private readonly vectors: ToolVectors;
  /** What the whole catalog and each filter of it (an agent's tool list, shared by its sessions) see. */
  private seenWhole: Seen | undefined;
  private readonly seenFiltered = new WeakMap<(name: string) => boolean, Seen>();
  /** The embedding under way, so sessions sharing the catalog wait for it instead of embedding the same tools again. */
  private embedding: Promise<number> | undefined;
  private changes = 0;

  constructor(tools: Iterable<RetrievalTool> = [], options: RetrieverOptions = {}) {
    this.k = options.k ?? DEFAULT_K;
    this.onFailOpen = options.onFailOpen;
    this.vectors = new ToolVectors(options.embeddings, options.embedTimeoutMs, options.vectorCache);
    this.ranker = new Ranker(this.index, options.settings ?? DEFAULT_RANKING, (a, b) => this.tieBreak(a, b));
    this.upsertAll(tools);
  }

  /** True once a ranking has needed the index and it was filled with the catalog's words. */
  get indexed(): boolean {
    return this.filled;
  }

  /** Number of tools in the catalog. */
  get size(): number {
    return this.tools.size;
  }

  /** Adds a tool, or replaces the one with the same name. */
  upsert(tool: RetrievalTool): void {
    if (!this.order.has(tool.name)) this.order.set(tool.name, this.nextOrder++);
    this.tools.set(tool.name, tool);
    if (this.filled) this.index.upsert(tool);
    this.vectors.replaced(tool);
    this.changed();
    if (isCore(tool)) this.coreNames.add(tool.name);
    else this.coreNames.delete(tool.name);
  }

  /** Adds or replaces many tools (into an empty catalog in bulk, which is faster). */
  upsertAll(tools: Iterable<RetrievalTool>): void {
    const list = [...tools];
    for (const tool of list) {
      if (!this.order.has(tool.name)) this.order.set(tool.name, this.nextOrder++);
      this.tools.set(tool.name, tool);
      this.vectors.replaced(tool);
      if (isCore(tool)) this.coreNames.add(tool.name);
      else this.coreNames.delete(tool.name);
    }
    if (this.filled) this.index.upsertMany(list);
    this.changed();
  }

  /** Removes a tool; false when it was not in the catalog. */
  remove(name: string): boolean {
    this.order.delete(name);
    this.changed();
    this.coreNames.delete(name);
    this.partsByName.delete(name);
    this.vectors.delete(name);
    // Even before the index is filled: a fill that threw part way may have read this tool already.
    this.index.remove(name);
    return this.tools.delete(name);
  }

  /**
   * Brings the catalog to exactly `tools`: new ones added, changed ones replaced, missing ones
   * removed, unchanged ones untouched (an MCP server's list changing costs only the difference).
   * Returns the names removed.
   */
  setTools(tools: Iterable<RetrievalTool>): string[] {
    const keep = new Set<string>();
    for (const t of tools) {
      keep.add(t.name);
      const old = this.tools.get(t.name);
      if (old !== t && !(old && sameTool(old, t))) this.upsert(t);
    }
    const removed = [...this.order.keys()].filter((name) => !keep.has(name));
    for (const name of removed) this.remove(name);
    return removed;
  }

  /** The catalog's tool with this name. */
  get(name: string): RetrievalTool | undefined {
    return this.tools.get(name);
  }

  /** True for a core tool of the catalog (offered every turn). */
  isCore(name: string): boolean {
    return this.coreNames.has(name);
  }

  /** The core tools' names. */
  get core(): ReadonlySet<string> {
    return this.coreNames;
  }

  /** The catalog in order, shared by every view (never to be changed: hand out copies). */
  orderedTools(): readonly RetrievalTool[] {
    this.ordered ??= [...this.tools.values()].sort((a, b) => this.orderOf(a.name) - this.orderOf(b.name));
    return this.ordered;
  }

  /**
   * The tools `visible` passes (all without it) in catalog order, worked out once per catalog state
   * and filter: every session seeing the catalog through the same filter shares it (never to be
   * changed: hand out copies).
   */
  toolsSeen(visible?: (name: string) => boolean): readonly RetrievalTool[] {
    return this.seen(visible).tools;
  }

  /** The tools `visible` passes, on shelves for the catalog of deferred tools (see `toolsSeen`). */
  shelvesSeen(visible?: (name: string) => boolean): CatalogShelves {
    const seen = this.seen(visible);
    // Line lengths only: the lines themselves are cut again for the few a turn describes.
    seen.shelves ??= new CatalogShelves(seen.tools, (t) => lineText(t).length + 1);
    return seen.shelves;
  }

  private seen(visible: ((name: string) => boolean) | undefined): Seen {
    const kept = visible === undefined ? this.seenWhole : this.seenFiltered.get(visible);
    if (kept?.generation === this.changes) return kept;
    const all = this.orderedTools();
    const tools = visible === undefined ? all : all.filter((t) => visible(t.name));
    const made: Seen = { generation: this.changes, tools, shelves: undefined };
    if (visible === undefined) this.seenWhole = made;
    else this.seenFiltered.set(visible, made);
    return made;
  }

  /** Forgets what was worked out from the catalog (its order, tie ranks, hinted tools). */
  private changed(): void {
    this.changes += 1;
    this.ordered = undefined;
    this.tieRanks = undefined;
    this.hintedBy.clear();
    this.seenWhole = undefined;
  }

  /**
   * Tools whose names the hint fragments point at, the platform's own first, then by name (as ranking
   * ties are ordered), with their names for look-ups; remembered per fragment set.
   */
  hintedTools(hints: readonly string[]): HintedTools {
    const key = hints.join('\u0000');
    let hinted = this.hintedBy.get(key);
    if (!hinted) {
      const matcher = fragmentMatcher(hints);
      const tools = this.orderedTools()
        .filter((t) => fragmentNames(matcher, this.nameParts(t.name)))
        .sort(platformFirst);
      hinted = { tools, names: new Set(tools.map((t) => t.name)) };
      if (this.hintedBy.size >= MAX_HINTED_SETS) this.hintedBy.clear();
      this.hintedBy.set(key, hinted);
    }
    return hinted;
  }

  /**
   * Embeds the tools that have no vector yet (or whose text changed) with the embedding source, in
   * batches; returns how many were embedded. A failing batch is skipped: those tools rank by words.
   * A call while another is under way waits for it, then embeds what is still missing.
   */
  embedTools(batchSize = 64): Promise<number> {
    const run = (): Promise<number> =>
      this.vectors.embed([...this.orderedTools()], (t) => this.tools.get(t.name) === t, batchSize);
    const next = this.embedding === undefined ? run() : this.embedding.then(run, run);
    this.embedding = next;
    const settle = (): void => {
      if (this.embedding === next) this.embedding = undefined;
    };
    next.then(settle, settle);
    return next;
  }

  /** The request's embedding for `select`/`search`; undefined without a source or when it fails. */
  embedQuery(query: string): Promise<Float32Array | undefined> {
    return this.vectors.embedQuery(query);
  }

  /** Tools whose words (and, with `queryVector`, meaning) match the query, best first; at most `limit`. */
  rank(query: string, limit: number, queryVector: Float32Array | undefined): Ranked[] {
    this.fillIndex();
    return this.ranker.rank(query, limit, this.dense(queryVector));
  }

  /** The tool a ranking's slot stands for. */
  toolAt(slot: number): RetrievalTool {
    return this.index.toolAt(slot) as RetrievalTool;
  }

  /** Reads the catalog's tools into the index, in bulk, the first time a ranking needs it. */
  private fillIndex(): void {
    if (this.filled) return;
    // Set once filled: a fill that threw is tried again (over what it left, tool by tool) next time.
    this.index.upsertMany(this.orderedTools());
    this.filled = true;
  }

  /**
   * Ranks the FULL catalog for `tool_search`: tools the run may not use are left out before the
   * limit cut; platform tools first on ties; descriptions cut. An empty query lists tools in order.
   * A query that is a tool's name (real, wire, or the server's own after the last `/`) answers that
   * tool first.
   */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const limit = Math.max(0, Math.floor(options.limit ?? 20));
    const shown = options.shown ?? (() => true);
    let tools: RetrievalTool[];
    if (query.trim() === '') {
      tools = [...this.orderedTools()].sort(platformFirst);
    } else {
      const name = query.trim();
      const exact = this.tools.get(name) ?? this.tools.get(options.realName?.(name) ?? '');
      tools = toolsNamed(name, exact, this.orderedTools());
      const seen = new Set(tools.map((t) => t.name));
      for (const r of this.rank(query, Number.POSITIVE_INFINITY, options.queryVector)) {
        const t = this.toolAt(r.slot);
        if (!seen.has(t.name)) {
          seen.add(t.name);
          tools.push(t);
        }
      }
      const lowered = query.trim().toLowerCase();
      // A tool whose name or description holds the whole query as typed is a match even when no
      // word of it survives stemming and stop-word removal.
      const holds = (text: string): boolean => text.toLowerCase().includes(lowered);
      for (const t of this.orderedTools()) {
        if (!seen.has(t.name) && (holds(t.name) || holds(descriptionOf(t)))) tools.push(t);
      }
    }
    return tools
      .filter((t) => shown(t.name))
      .slice(0, limit)
      .map((t) => ({ name: t.name, description: cutText(descriptionOf(t), SEARCH_DESCRIPTION_CHARS) }));
  }

  /** The tools' vectors by slot, with the query's, for the ranker; undefined without both. */
  private dense(queryVector: Float32Array | undefined): DenseQuery | undefined {
    return this.vectors.dense(queryVector, (name) => this.index.slotOf(name));
  }

  /** A tool's name split for hint matching (cached: hints test every tool every turn). */
  private nameParts(name: string): NameParts {
    let parts = this.partsByName.get(name);
    if (!parts) {
      parts = nameParts(name);
      this.partsByName.set(name, parts);
    }
    return parts;
  }

  /** A tool's place in catalog order (the order tools were first added). */
  orderOf(name: string): number {
    return this.order.get(name) ?? Number.MAX_SAFE_INTEGER;
  }

  /** Ties in the ranking: by each slot's place in (platform first, then name) order. */
  private tieBreak(a: number, b: number): number {
    if (!this.tieRanks) {
      // Rebuilt only after the catalog changed: a numeric comparison per tie instead of two lookups
      // and a string comparison (near-identical tools tie often).
      const ranks = new Int32Array(this.index.capacity);
      const sorted = [...this.orderedTools()].sort(platformFirst);
      sorted.forEach((t, i) => {
        ranks[this.index.slotOf(t.name) as number] = i;
      });
      this.tieRanks = ranks;
    }
    return (this.tieRanks[a] ?? 0) - (this.tieRanks[b] ?? 0) || a - b;
  }
}
