import { admitTools, MAX_OFFERED_TOOLS } from './admit-tools.js';
import { CATALOG_CHARS, shelvedCatalog } from './catalog.js';
import { requestText } from './request-text.js';
import { platformFirst, type RetrievalTool } from './retrieval-tool.js';
import type { SearchHit, SearchOptions, SelectOptions } from './retriever-options.js';
import { schemaSize } from './schema-size.js';
import { hintedFragments } from './structural-hints.js';
import type { HintedTools, ToolCatalog } from './tool-catalog.js';

/** Ranked tools read past the K offered, so the catalog can describe the next most relevant. */
const RELEVANCE_READ = 32;

/**
 * One session's view of a shared `ToolCatalog`: the tools it may see (its agent's list, its grants),
 * the tools it called (sticky), the last turn's hints and offer, and how relevant the last selection
 * found each tool. Small: the index itself is the catalog's.
 */
export class CatalogView {
  /** Tools this session called while they were in the catalog: sticky whenever they are in it. */
  private readonly used = new Set<string>();
  private carriedHints: string[] = [];
  /** What the last reduced selection offered (core tools aside), to fill the room a weak request leaves. */
  private lastOffered: string[] = [];
  private relevance = new Map<string, number>();
  private surfaced = 0;

  /** `visible` leaves out the tools this session may not see (all are seen without it). */
  constructor(
    readonly catalog: ToolCatalog,
    private visible?: (name: string) => boolean,
  ) {}

  /** Full schemas offered per turn at most (core, sticky and hinted tools may add to it). */
  get k(): number {
    return this.catalog.k;
  }

  /** Number of tools this view sees. */
  get size(): number {
    return this.visible === undefined ? this.catalog.size : this.visibleTools().length;
  }

  /** From now on sees only the tools `visible` passes (a turn still under way after the catalog moved on). */
  limitTo(visible: (name: string) => boolean): void {
    this.visible = visible;
  }

  /** Takes on what another view of the same session knew: the tools it called, its last hints and offer. */
  carryFrom(other: CatalogView): void {
    for (const name of other.used) this.used.add(name);
    this.carriedHints = other.carriedHints;
    this.lastOffered = other.lastOffered;
    this.relevance = new Map([...other.relevance].filter(([name]) => this.get(name) !== undefined));
    this.surfaced = other.surfaced;
  }

  /** True when this view sees the tool (whether or not the catalog has it). */
  shows(name: string): boolean {
    return this.visible === undefined || this.visible(name);
  }

  /** The tool with this name, when this view sees it. */
  get(name: string): RetrievalTool | undefined {
    const tool = this.catalog.get(name);
    return tool !== undefined && this.shows(name) ? tool : undefined;
  }

  /** Every tool this view sees, in catalog order. */
  tools(): RetrievalTool[] {
    return [...this.visibleTools()];
  }

  /** The tools this view sees in catalog order, shared with every view through the same filter (never handed out). */
  private visibleTools(): readonly RetrievalTool[] {
    return this.catalog.toolsSeen(this.visible);
  }

  /**
   * The catalog (see `catalog`) of the tools this view sees but `shown`, described by `relevance`
   * (the last selection's by default). Laid out from shelves the catalog keeps per state, so a turn
   * pays for the tools it shows and describes, not for every tool in the catalog.
   */
  deferredCatalog(
    shown: ReadonlySet<string>,
    relevance: ReadonlyMap<string, number> = this.relevance,
    maxChars: number = CATALOG_CHARS,
  ): string {
    const shelves = this.catalog.shelvesSeen(this.visible);
    return shelvedCatalog(shelves, shown, relevance, maxChars);
  }

  /** Records that this session called a tool: it is offered every turn from now on. */
  markUsed(name: string): void {
    if (this.get(name)) this.used.add(name);
  }

  /** Tools called this session that are in the catalog now. */
  get sticky(): ReadonlySet<string> {
    return new Set([...this.used].filter((name) => this.get(name) !== undefined));
  }

  /** True when this view sees more tools than one turn offers. */
  reduced(): boolean {
    return this.size > this.k;
  }

  /** Tools the last selection did not offer. */
  get hiddenCount(): number {
    return this.size - this.surfaced;
  }

  /**
   * How relevant the last selection found each tool (1 = best ranked; above 1 for sticky and hinted
   * tools); the catalog describes these first. Empty when the last selection offered everything.
   * Never changed once handed out: each selection makes a new map.
   */
  get lastRelevance(): ReadonlyMap<string, number> {
    return this.relevance;
  }

  /**
   * Forgets a tool's relevance (it left the catalog). The map is replaced, not changed: selections
   * hand out the map itself as their relevance.
   */
  protected forget(name: string): void {
    if (!this.relevance.has(name)) return;
    const relevance = new Map(this.relevance);
    relevance.delete(name);
    this.relevance = relevance;
  }

  /** Embeds the catalog's tools not embedded yet (see `ToolCatalog.embedTools`). */
  embedTools(batchSize = 64): Promise<number> {
    return this.catalog.embedTools(batchSize);
  }

  /** The request's embedding for `select`/`search`; undefined without a source or when it fails. */
  embedQuery(query: string): Promise<Float32Array | undefined> {
    return this.catalog.embedQuery(query);
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
        options.restrict !== undefined || this.visible !== undefined,
        options.queryVector,
      );
      this.surfaced = selected.length;
      return selected;
    } catch (error) {
      this.catalog.onFailOpen?.(error);
      this.relevance = new Map();
      // The whole pool, as far as one request can carry it: core tools, then the rest in catalog order.
      let others = 0;
      const offered = pool.filter((t) => this.catalog.isCore(t.name) || others++ < MAX_OFFERED_TOOLS);
      this.surfaced = offered.length;
      return offered;
    }
  }

  /** Ranks every tool this view sees for `tool_search` (see `ToolCatalog.search`). */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const visible = this.visible;
    if (visible === undefined) return this.catalog.search(query, options);
    const shown = options.shown;
    return this.catalog.search(query, {
      ...options,
      shown: shown === undefined ? visible : (name) => visible(name) && shown(name),
    });
  }

  /** The steps of `select`, unguarded. */
  private choose(
    query: string,
    pool: readonly RetrievalTool[],
    budget: number | undefined,
    restricted: boolean,
    queryVector: Float32Array | undefined,
  ): RetrievalTool[] {
    const catalog = this.catalog;
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
    for (const name of catalog.core) if (allowed(name)) core.push(catalog.get(name) as RetrievalTool);
    const hints = fragments.length > 0 ? fragments : this.carriedHints;
    this.carriedHints = fragments;
    // Sticky tools are sorted by rank below: the order they are found in does not matter.
    const sticky: RetrievalTool[] = [];
    for (const name of this.used) {
      const t = catalog.get(name);
      if (t && !catalog.isCore(name) && allowed(name)) sticky.push(t);
    }
    // Hinted tools are admitted ahead of the ranking's, best ranked first. A fragment may name thousands
    // of a large catalog's tools (every name holding "file" or "schedule"), so only as many are lifted
    // (made relevant, for the catalog) as admission takes, the ranking's way: k, or 4k when a budget
    // may skip some; under a budget admission reads on past them while tools are skipped. Those the
    // ranking does not reach within its limit follow in the hinted order.
    const named = hints.length === 0 ? undefined : catalog.hintedTools(hints);
    const hintable = (t: RetrievalTool): boolean =>
      !catalog.isCore(t.name) && !this.used.has(t.name) && allowed(t.name);
    const hintRead = (budget === undefined ? 1 : 4) * this.k;

    // Only the head of the ranking is admitted or described first in the catalog; a budget may skip
    // tools, so read further then. A restricted pool reads the whole ranking.
    let limit = Number.POSITIVE_INFINITY;
    if (!inPool) {
      let hintedAtMost = 0;
      for (const t of named?.tools ?? []) {
        if (hintedAtMost === hintRead) break;
        if (hintable(t)) hintedAtMost += 1;
      }
      limit = hintRead + core.length + sticky.length + hintedAtMost + RELEVANCE_READ;
    }
    // The ranked tools in the pool but the core, and each one's score as a share of the first's.
    const ranked: RetrievalTool[] = [];
    const relevance = new Map<string, number>();
    let top = 1;
    for (const r of catalog.rank(query, limit, queryVector)) {
      const t = catalog.toolAt(r.slot);
      if ((inPool !== undefined && !inPool.has(t.name)) || catalog.isCore(t.name)) continue;
      if (ranked.length === 0) top = r.score;
      ranked.push(t);
      relevance.set(t.name, r.score / top);
    }
    const hintOrder = named === undefined ? undefined : hintedInOrder(named, ranked, hintable);
    const hinted: RetrievalTool[] = [];
    // Taken one by one: a `for…of` that stops early would close the generator that admission reads on.
    while (hintOrder !== undefined && hinted.length < hintRead) {
      const next = hintOrder.next();
      if (next.done) break;
      hinted.push(next.value);
    }
    for (const t of sticky) relevance.set(t.name, 1 + (relevance.get(t.name) ?? 0));
    for (const t of hinted) relevance.set(t.name, 1 + (relevance.get(t.name) ?? 0));
    this.relevance = relevance;

    const byRank = (a: RetrievalTool, b: RetrievalTool): number =>
      (relevance.get(b.name) ?? 0) - (relevance.get(a.name) ?? 0) || platformFirst(a, b);
    const fallback: RetrievalTool[] = [];
    for (const name of this.lastOffered) {
      const t = catalog.get(name);
      if (t && !catalog.isCore(name) && allowed(name)) fallback.push(t);
    }
    const chosen = admitTools(
      {
        core,
        sticky: sticky.sort(byRank),
        // Already in rank order (a lifted tool's relevance is 1 + its share of the ranking).
        hinted: budget === undefined || hintOrder === undefined ? hinted : readOn(hinted, hintOrder),
        ranked,
        fallback,
      },
      this.k,
      budget,
    );
    this.lastOffered = [...chosen].filter((name) => !catalog.isCore(name));
    if (chosen.size >= pool.length) return [...pool];
    // In catalog order, as the pool lists them (it holds every chosen tool): read off the pool when
    // it is not much larger than the choice, sorted otherwise.
    if (pool.length <= 4 * chosen.size) return pool.filter((t) => chosen.has(t.name));
    // Each tool's place looked up once, not twice per comparison (a lookup in a map of every tool).
    const placed: { readonly tool: RetrievalTool; readonly at: number }[] = [];
    for (const name of chosen)
      placed.push({ tool: catalog.get(name) as RetrievalTool, at: catalog.orderOf(name) });
    return placed.sort((a, b) => a.at - b.at).map((p) => p.tool);
  }

  private pool(restrict: Iterable<string> | undefined): readonly RetrievalTool[] {
    const all = this.visibleTools();
    if (restrict === undefined) return all;
    const allowed = new Set(restrict);
    return all.filter((t) => allowed.has(t.name));
  }
}

/**
 * The tools `hinted` names that `hintable` passes, in the order they are admitted (best ranked first,
 * then the platform's own, then by name): the ranked ones among them, then the rest in the hinted
 * order. Read lazily: a turn pays for the ranking and the tools it takes (and for those `hintable`
 * turns down on the way), not for every tool the hints name.
 */
function* hintedInOrder(
  hinted: HintedTools,
  ranked: readonly RetrievalTool[],
  hintable: (t: RetrievalTool) => boolean,
): Generator<RetrievalTool> {
  const taken = new Set<string>();
  for (const t of ranked) {
    if (hinted.names.has(t.name) && hintable(t)) {
      taken.add(t.name);
      yield t;
    }
  }
  for (const t of hinted.tools) if (!taken.has(t.name) && hintable(t)) yield t;
}

/** The tools of `head`, then what `rest` (a generator part-read) has left. */
function* readOn(head: readonly RetrievalTool[], rest: Iterable<RetrievalTool>): Generator<RetrievalTool> {
  yield* head;
  yield* rest;
}
