import { admitTools, MAX_OFFERED_TOOLS } from './admit-tools.js';
import { isCore } from './core-tools.js';
import type { DenseQuery } from './dense-fusion.js';
import { Ranker } from './ranker.js';
import { DEFAULT_RANKING } from './ranking-settings.js';
import { requestText } from './request-text.js';
import { platformFirst, type RetrievalTool, sameTool } from './retrieval-tool.js';
import {
  DEFAULT_K,
  type RetrieverOptions,
  SEARCH_DESCRIPTION_CHARS,
  type SearchHit,
  type SearchOptions,
  type SelectOptions,
} from './retriever-options.js';
import { schemaSize } from './schema-size.js';
import {
  fragmentMatcher,
  fragmentNames,
  hintedFragments,
  type NameParts,
  nameParts,
} from './structural-hints.js';
import { cutText } from './text-cut.js';
import { ToolIndex } from './tool-index.js';
import { descriptionOf } from './tool-text.js';
import { ToolVectors } from './tool-vectors.js';
import { toolsNamed } from './tools-named.js';
import type { Ranked } from './top-k.js';

/** Ranked tools read past the K offered, so the catalog can describe the next most relevant. */
const RELEVANCE_READ = 32;

/**
 * Picks the tools a turn offers with full schemas and ranks the catalog for `tool_search`. Holds the
 * catalog as an incremental index, the tools called this session (sticky) and the last turn's hints.
 */
export class ToolRetriever {
  readonly k: number;
  private readonly index = new ToolIndex();
  private readonly ranker: Ranker;
  /** Catalog order: the order tools were first added. */
  private readonly order = new Map<string, number>();
  private nextOrder = 0;
  private ordered: RetrievalTool[] | undefined;
  private tieRanks: Int32Array | undefined;
  private readonly hintedBy = new Map<string, readonly RetrievalTool[]>();
  private readonly coreNames = new Set<string>();
  private readonly partsByName = new Map<string, NameParts>();
  private readonly used = new Set<string>();
  /** Tools this session called that were withdrawn since: sticky again when they come back. */
  private readonly usedAway = new Set<string>();
  private carriedHints: string[] = [];
  /** What the last reduced selection offered (core tools aside), to fill the room a weak request leaves. */
  private lastOffered: string[] = [];
  private relevance = new Map<string, number>();
  private surfaced = 0;
  private readonly onFailOpen: ((error: unknown) => void) | undefined;
  private readonly vectors: ToolVectors;

  constructor(tools: Iterable<RetrievalTool> = [], options: RetrieverOptions = {}) {
    this.k = options.k ?? DEFAULT_K;
    this.onFailOpen = options.onFailOpen;
    this.vectors = new ToolVectors(options.embeddings, options.embedTimeoutMs);
    this.ranker = new Ranker(this.index, options.settings ?? DEFAULT_RANKING, (a, b) => this.tieBreak(a, b));
    this.upsertAll(tools);
  }

  /** Number of tools in the catalog. */
  get size(): number {
    return this.index.size;
  }

  /** Adds a tool, or replaces the one with the same name (its sticky mark is kept). */
  upsert(tool: RetrievalTool): void {
    if (!this.order.has(tool.name)) this.order.set(tool.name, this.nextOrder++);
    this.index.upsert(tool);
    this.vectors.replaced(tool);
    this.returned(tool.name);
    this.changed();
    if (isCore(tool)) this.coreNames.add(tool.name);
    else this.coreNames.delete(tool.name);
  }

  /** Adds or replaces many tools (into an empty catalog in bulk, which is faster). */
  upsertAll(tools: Iterable<RetrievalTool>): void {
    const list = [...tools];
    for (const tool of list) {
      if (!this.order.has(tool.name)) this.order.set(tool.name, this.nextOrder++);
      this.vectors.replaced(tool);
      this.returned(tool.name);
      if (isCore(tool)) this.coreNames.add(tool.name);
      else this.coreNames.delete(tool.name);
    }
    this.index.upsertMany(list);
    this.changed();
  }

  /** A tool this session called is back in the catalog: it is offered every turn again. */
  private returned(name: string): void {
    if (this.usedAway.size > 0 && this.usedAway.delete(name)) this.used.add(name);
  }

  /** Removes a tool (a called one is sticky again if it comes back); false when it was not in the catalog. */
  remove(name: string): boolean {
    this.order.delete(name);
    if (this.used.delete(name)) this.usedAway.add(name);
    this.relevance.delete(name);
    this.changed();
    this.coreNames.delete(name);
    this.partsByName.delete(name);
    this.vectors.delete(name);
    return this.index.remove(name);
  }

  /**
   * Brings the catalog to exactly `tools`: new ones added, changed ones replaced, missing ones
   * removed, unchanged ones untouched (an MCP server's list changing costs only the difference).
   */
  setTools(tools: Iterable<RetrievalTool>): void {
    const keep = new Set<string>();
    for (const t of tools) {
      keep.add(t.name);
      const old = this.index.get(t.name);
      if (old !== t && !(old && sameTool(old, t))) this.upsert(t);
    }
    for (const name of [...this.order.keys()]) if (!keep.has(name)) this.remove(name);
  }

  /** The catalog's tool with this name. */
  get(name: string): RetrievalTool | undefined {
    return this.index.get(name);
  }

  /** Every tool, in catalog order. */
  tools(): RetrievalTool[] {
    return [...this.orderedTools()];
  }

  /** The catalog in order, shared by the steps of a turn (never handed out: callers get copies). */
  private orderedTools(): readonly RetrievalTool[] {
    this.ordered ??= [...this.index.tools()].sort((a, b) => this.orderOf(a.name) - this.orderOf(b.name));
    return this.ordered;
  }

  /** Forgets what was worked out from the catalog (its order, tie ranks, hinted tools). */
  private changed(): void {
    this.ordered = undefined;
    this.tieRanks = undefined;
    this.hintedBy.clear();
  }

  /** Tools whose names the hint fragments point at, in catalog order (remembered per fragment set). */
  private hintedTools(hints: readonly string[]): readonly RetrievalTool[] {
    const key = hints.join('\u0000');
    let tools = this.hintedBy.get(key);
    if (!tools) {
      const matcher = fragmentMatcher(hints);
      tools = this.orderedTools().filter((t) => fragmentNames(matcher, this.nameParts(t.name)));
      if (this.hintedBy.size >= 256) this.hintedBy.clear();
      this.hintedBy.set(key, tools);
    }
    return tools;
  }

  /**
   * Embeds the tools that have no vector yet (or whose text changed) with the embedding source, in
   * batches; returns how many were embedded. A failing batch is skipped: those tools rank by words.
   */
  embedTools(batchSize = 64): Promise<number> {
    return this.vectors.embed(this.tools(), (t) => this.index.get(t.name) === t, batchSize);
  }

  /** The request's embedding for `select`/`search`; undefined without a source or when it fails. */
  embedQuery(query: string): Promise<Float32Array | undefined> {
    return this.vectors.embedQuery(query);
  }

  /** Records that this session called a tool: it is offered every turn from now on. */
  markUsed(name: string): void {
    if (this.index.get(name)) this.used.add(name);
  }

  /** Tools called this session. */
  get sticky(): ReadonlySet<string> {
    return this.used;
  }

  /** True when the catalog holds more tools than one turn offers. */
  reduced(): boolean {
    return this.index.size > this.k;
  }

  /** Tools the last selection did not offer. */
  get hiddenCount(): number {
    return this.index.size - this.surfaced;
  }

  /**
   * How relevant the last selection found each tool (1 = best ranked; above 1 for sticky and hinted
   * tools); the catalog describes these first. Empty when the last selection offered everything.
   */
  get lastRelevance(): ReadonlyMap<string, number> {
    return this.relevance;
  }

  /**
   * The tools to offer with full schemas for this request: core ∪ sticky ∪ hinted ∪ best-ranked up to
   * K, within the schema budget, in catalog order. Fails open: any error offers the whole pool (as
   * much of it as one request carries).
   */
  select(query: string, options: SelectOptions = {}): RetrievalTool[] {
    const pool = this.pool(options.restrict);
    try {
      const selected = this.choose(
        query,
        pool,
        options.budgetChars,
        options.restrict !== undefined,
        options.queryVector,
      );
      this.surfaced = selected.length;
      return selected;
    } catch (error) {
      this.onFailOpen?.(error);
      this.relevance = new Map();
      // The whole pool, as far as one request can carry it: core tools, then the rest in catalog order.
      let others = 0;
      const offered = pool.filter((t) => this.coreNames.has(t.name) || others++ < MAX_OFFERED_TOOLS);
      this.surfaced = offered.length;
      return offered;
    }
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
      tools = this.tools().sort((a, b) => this.compareTools(a, b));
    } else {
      const name = query.trim();
      const exact = this.index.get(name) ?? this.index.get(options.realName?.(name) ?? '');
      tools = toolsNamed(name, exact, this.orderedTools());
      const seen = new Set(tools.map((t) => t.name));
      for (const r of this.ranker.rank(query, Number.POSITIVE_INFINITY, this.dense(options.queryVector))) {
        const t = this.index.toolAt(r.slot) as RetrievalTool;
        if (!seen.has(t.name)) {
          seen.add(t.name);
          tools.push(t);
        }
      }
      const lowered = query.trim().toLowerCase();
      // A tool whose name or description holds the whole query as typed is a match even when no
      // word of it survives stemming and stop-word removal.
      const holds = (text: string): boolean => text.toLowerCase().includes(lowered);
      for (const t of this.tools()) {
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

  /** The steps of `select`, unguarded. */
  private choose(
    query: string,
    pool: readonly RetrievalTool[],
    budget: number | undefined,
    restricted: boolean,
    queryVector: Float32Array | undefined,
  ): RetrievalTool[] {
    const fragments = hintedFragments(requestText(query));
    const fitsWhole = (): boolean =>
      budget === undefined || pool.reduce((n, t) => n + schemaSize(t), 0) <= budget;
    if (pool.length <= this.k && fitsWhole()) {
      this.carriedHints = fragments;
      this.relevance = new Map();
      return [...pool];
    }
    const inPool = restricted ? new Set(pool.map((t) => t.name)) : undefined;
    const allowed = (name: string): boolean => inPool === undefined || inPool.has(name);
    const core: RetrievalTool[] = [];
    for (const name of this.coreNames) if (allowed(name)) core.push(this.index.get(name) as RetrievalTool);
    const hints = fragments.length > 0 ? fragments : this.carriedHints;
    this.carriedHints = fragments;
    // Sticky and hinted tools are sorted by rank below: the order they are found in does not matter.
    const sticky: RetrievalTool[] = [];
    for (const name of this.used) {
      const t = this.index.get(name);
      if (t && !this.coreNames.has(name) && allowed(name)) sticky.push(t);
    }
    const hinted =
      hints.length === 0
        ? []
        : this.hintedTools(hints).filter(
            (t) => !this.coreNames.has(t.name) && !this.used.has(t.name) && allowed(t.name),
          );

    // Only the head of the ranking is admitted or described first in the catalog; a budget may skip
    // tools, so read further then.
    const extra = core.length + sticky.length + hinted.length + RELEVANCE_READ;
    const limit = inPool ? Number.POSITIVE_INFINITY : (budget === undefined ? 1 : 4) * this.k + extra;
    const ranked = this.ranker.rank(query, limit, this.dense(queryVector)).filter((r) => {
      const name = nameAt(this.index, r);
      return (inPool === undefined || inPool.has(name)) && !this.coreNames.has(name);
    });
    const top = ranked[0]?.score ?? 1;
    const relevance = new Map<string, number>();
    for (const r of ranked) relevance.set(nameAt(this.index, r), r.score / top);
    for (const t of [...sticky, ...hinted]) relevance.set(t.name, 1 + (relevance.get(t.name) ?? 0));
    this.relevance = relevance;

    const byRank = (a: RetrievalTool, b: RetrievalTool): number =>
      (relevance.get(b.name) ?? 0) - (relevance.get(a.name) ?? 0) || this.compareTools(a, b);
    const fallback: RetrievalTool[] = [];
    for (const name of this.lastOffered) {
      const t = this.index.get(name);
      if (t && !this.coreNames.has(name) && allowed(name)) fallback.push(t);
    }
    const chosen = admitTools(
      {
        core,
        sticky: sticky.sort(byRank),
        hinted: hinted.sort(byRank),
        ranked: ranked.map((r) => this.index.toolAt(r.slot) as RetrievalTool),
        fallback,
      },
      this.k,
      budget,
    );
    this.lastOffered = [...chosen].filter((name) => !this.coreNames.has(name));
    if (chosen.size >= pool.length) return [...pool];
    // In catalog order, as the pool lists them.
    const out: RetrievalTool[] = [];
    for (const name of chosen) out.push(this.index.get(name) as RetrievalTool);
    return out.sort((a, b) => this.orderOf(a.name) - this.orderOf(b.name));
  }

  private pool(restrict: Iterable<string> | undefined): readonly RetrievalTool[] {
    const all = this.orderedTools();
    if (restrict === undefined) return all;
    const allowed = new Set(restrict);
    return all.filter((t) => allowed.has(t.name));
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

  private orderOf(name: string): number {
    return this.order.get(name) ?? Number.MAX_SAFE_INTEGER;
  }

  /** Ties: the platform's own tool first, then by name. */
  private compareTools(a: RetrievalTool, b: RetrievalTool): number {
    return platformFirst(a, b);
  }

  /** Ties in the ranking: by each slot's place in (platform first, then name) order. */
  private tieBreak(a: number, b: number): number {
    if (!this.tieRanks) {
      // Rebuilt only after the catalog changed: a numeric comparison per tie instead of two lookups
      // and a string comparison (near-identical tools tie often).
      const ranks = new Int32Array(this.index.capacity);
      const sorted = this.tools().sort((x, y) => this.compareTools(x, y));
      sorted.forEach((t, i) => {
        ranks[this.index.slotOf(t.name) as number] = i;
      });
      this.tieRanks = ranks;
    }
    return (this.tieRanks[a] ?? 0) - (this.tieRanks[b] ?? 0) || a - b;
  }
}

function nameAt(index: ToolIndex, r: Ranked): string {
  return (index.toolAt(r.slot) as RetrievalTool).name;
}
