import { PairTable } from './pair-table.js';
import { PostingStore } from './posting-store.js';
import type { RetrievalTool } from './retrieval-tool.js';
import type { ScoreBuffer } from './score-buffer.js';
import { termOf, terms, words } from './tokenize.js';
import { FIELDS, PAIRS_FIELD, toolText } from './tool-text.js';

const NF = FIELDS.length;

/** One indexed tool. */
interface Entry {
  readonly tool: RetrievalTool;
  /** Term count per field. */
  readonly lengths: Float64Array;
  /** The tool's distinct term ids, and their counts per field (NF numbers per term, in term order). */
  readonly terms: Int32Array;
  readonly tfs: Uint16Array;
  /** The distinct terms of the name field. */
  readonly nameTerms: Int32Array;
}

/** A tool's distinct term ids with their per-field counts (NF numbers per term, in term order). */
export interface TermCounts {
  readonly terms: Int32Array;
  readonly tfs: Uint16Array;
}

/** BM25F weights: how much a match in each field counts, and how strongly each field's length damps it. */
export interface FieldWeights {
  readonly weight: readonly number[];
  readonly b: readonly number[];
  readonly k1: number;
}

/** Query terms by id, with their weights. */
export type WeightedTerms = Map<number, number>;

/**
 * An inverted index over tools with BM25F scoring. Tools are added, replaced and removed one at a time
 * (an MCP server's list changing) without rebuilding; statistics (document frequency, field lengths)
 * are kept current, so scores equal those of an index built from scratch over the same tools.
 */
export class ToolIndex {
  private readonly slots: (Entry | undefined)[] = [];
  private readonly free: number[] = [];
  private readonly bySlotName = new Map<string, number>();
  /** Term text → id; a pair of terms has an id too (see `pairId`), but no text. */
  private readonly ids = new Map<string, number>();
  private readonly pairIds = new PairTable();
  private readonly store = new PostingStore();
  /** Set while `upsertMany` loads an empty index: posting lists are laid out once at the end. */
  private loading = false;
  private readonly pairTerm: boolean[] = [];
  private readonly lengthSums = new Float64Array(NF);
  private live = 0;
  /** Bumped by every change to the index or to the weights; saturated frequencies older than it are stale. */
  private version = 0;
  private cachedWeights: FieldWeights | undefined;
  private readonly satCache: (Float64Array | undefined)[] = [];
  private readonly satVersion: number[] = [];
  /** idf by term id and name-idf sums by slot, each valid while its stamp equals `version`. */
  private idfCache = new Float64Array(0);
  private idfStamp = new Int32Array(0);
  private nameSums = new Float64Array(0);
  private nameStamp = new Int32Array(0);
  /** Scratch for upsert: which terms the tool being added has (by stamp) and where in its list. */
  private seenStamp = new Int32Array(0);
  private seenAt = new Int32Array(0);
  private scratchCounts = new Uint16Array(0);
  private stamp = 0;

  /**
   * `plain` reads every field as one text with no stop words and no stemming: the textbook BM25
   * baseline the benchmarks compare against.
   */
  constructor(readonly analyzer: 'standard' | 'plain' = 'standard') {}

  /** The terms the index reads from a text (queries go through the same analysis). */
  terms(text: string): string[] {
    return this.analyzer === 'plain' ? words(text) : terms(text);
  }

  /** The id of a term some tool holds; undefined when no tool does. */
  termId(term: string): number | undefined {
    const id = this.ids.get(term);
    return id !== undefined && this.store.df(id) > 0 ? id : undefined;
  }

  /** The id of an adjacent pair of terms some tool holds in its name or description. */
  pairId(first: number, second: number): number | undefined {
    const id = this.pairIds.get(first, second);
    return id >= 0 && this.store.df(id) > 0 ? id : undefined;
  }

  /** True for the id of a term pair (not a word). */
  isPair(id: number): boolean {
    return this.pairTerm[id] === true;
  }

  /** Number of tools indexed. */
  get size(): number {
    return this.live;
  }

  /** Highest slot in use + 1. */
  get capacity(): number {
    return this.slots.length;
  }

  /** Adds a tool, or replaces the one with the same name. */
  upsert(tool: RetrievalTool): void {
    if (this.bySlotName.has(tool.name)) this.remove(tool.name);
    const texts = toolText(tool, this.analyzer === 'plain');
    const fieldIds: number[][] =
      this.analyzer === 'plain'
        ? [[], this.intern(words(texts.slice(0, PAIRS_FIELD).join(' ')), false)]
        : texts.map((text) => this.intern(words(text), true));
    if (this.analyzer === 'standard') {
      const pairIds: number[] = [];
      this.internPairs(fieldIds[0] ?? [], pairIds);
      this.internPairs(fieldIds[1] ?? [], pairIds);
      fieldIds[PAIRS_FIELD] = pairIds;
    }
    const lengths = new Float64Array(NF);
    let total = 0;
    for (let f = 0; f < NF; f += 1) total += fieldIds[f]?.length ?? 0;
    this.growScratch(total);
    const stamp = ++this.stamp;
    const termList: number[] = [];
    const counts = this.scratchCounts;
    for (let f = 0; f < NF; f += 1) {
      const ts = fieldIds[f] ?? [];
      lengths[f] = ts.length;
      for (const t of ts) {
        let i: number;
        if (this.seenStamp[t] === stamp) i = this.seenAt[t] as number;
        else {
          i = termList.length;
          this.seenStamp[t] = stamp;
          this.seenAt[t] = i;
          termList.push(t);
          counts.fill(0, i * NF, i * NF + NF);
        }
        // Counts saturate at the 16-bit limit; BM25 saturates far sooner anyway.
        if ((counts[i * NF + f] as number) < 65_535) counts[i * NF + f] = (counts[i * NF + f] as number) + 1;
      }
    }
    const slot = this.free.pop() ?? this.slots.length;
    const tfs = counts.slice(0, termList.length * NF);
    const nameTerms = Int32Array.from(termList.filter((_, i) => (tfs[i * NF] as number) > 0));
    this.slots[slot] = { tool, lengths, terms: Int32Array.from(termList), tfs, nameTerms };
    this.bySlotName.set(tool.name, slot);
    for (let f = 0; f < NF; f += 1) this.lengthSums[f] = (this.lengthSums[f] ?? 0) + (lengths[f] ?? 0);
    for (let i = 0; i < termList.length; i += 1)
      if (!this.loading) this.store.add(termList[i] as number, slot, i);
    this.live += 1;
    this.version += 1;
  }

  /**
   * Adds many tools. Into an empty index they are loaded in bulk: every posting list is laid out
   * once at the end, in one flat array, instead of growing one list per term.
   */
  upsertMany(tools: Iterable<RetrievalTool>): void {
    if (this.live > 0) {
      for (const t of tools) this.upsert(t);
      return;
    }
    this.loading = true;
    try {
      for (const t of tools) this.upsert(t);
    } finally {
      this.loading = false;
      this.store.load(this.slots.map((e) => e?.terms));
      this.version += 1;
    }
  }

  /** Removes a tool by name; returns false when no such tool was indexed. */
  remove(name: string): boolean {
    const slot = this.bySlotName.get(name);
    if (slot === undefined) return false;
    const entry = this.slots[slot] as Entry;
    for (const t of entry.terms) this.store.remove(t, slot);
    for (let f = 0; f < NF; f += 1) this.lengthSums[f] = (this.lengthSums[f] ?? 0) - (entry.lengths[f] ?? 0);
    this.slots[slot] = undefined;
    this.free.push(slot);
    this.bySlotName.delete(name);
    this.live -= 1;
    this.version += 1;
    return true;
  }

  /** The indexed tool with this name. */
  get(name: string): RetrievalTool | undefined {
    const slot = this.bySlotName.get(name);
    return slot === undefined ? undefined : this.slots[slot]?.tool;
  }

  /** The tool in a slot (as returned by `accumulate`). */
  toolAt(slot: number): RetrievalTool | undefined {
    return this.slots[slot]?.tool;
  }

  /** The slot of a named tool. */
  slotOf(name: string): number | undefined {
    return this.bySlotName.get(name);
  }

  /** Every indexed tool, in slot order. */
  *tools(): IterableIterator<RetrievalTool> {
    for (const e of this.slots) if (e) yield e.tool;
  }

  /** How many tools hold the term. */
  df(id: number): number {
    return this.store.df(id);
  }

  /** Inverse document frequency (BM25's, always positive). */
  idf(id: number): number {
    if (this.idfStamp.length <= id) this.growIdfCache();
    if (this.idfStamp[id] === this.version) return this.idfCache[id] as number;
    const df = this.df(id);
    const idf = Math.log(1 + (this.live - df + 0.5) / (df + 0.5));
    this.idfCache[id] = idf;
    this.idfStamp[id] = this.version;
    return idf;
  }

  /** Sum of the idf of a tool's name terms (cached until the index changes). */
  nameIdf(slot: number): number {
    if (this.nameStamp.length <= slot) {
      const stamps = new Int32Array(Math.max(this.slots.length, 64) * 2).fill(-1);
      stamps.set(this.nameStamp);
      const sums = new Float64Array(stamps.length);
      sums.set(this.nameSums);
      this.nameStamp = stamps;
      this.nameSums = sums;
    }
    if (this.nameStamp[slot] === this.version) return this.nameSums[slot] as number;
    let sum = 0;
    const nameTerms = this.slots[slot]?.nameTerms;
    if (nameTerms) for (let i = 0; i < nameTerms.length; i += 1) sum += this.idf(nameTerms[i] as number);
    this.nameSums[slot] = sum;
    this.nameStamp[slot] = this.version;
    return sum;
  }

  private growIdfCache(): void {
    const size = Math.max(this.store.termCount, 1024) * 2;
    const stamps = new Int32Array(size).fill(-1);
    stamps.set(this.idfStamp);
    const values = new Float64Array(size);
    values.set(this.idfCache);
    this.idfStamp = stamps;
    this.idfCache = values;
  }

  /** The distinct term ids of a tool's name. */
  nameTermsOf(slot: number): Int32Array | undefined {
    return this.slots[slot]?.nameTerms;
  }

  /** A tool's term ids with their field counts (for feedback). */
  termsOf(slot: number): TermCounts | undefined {
    return this.slots[slot];
  }

  /**
   * Adds each weighted query term's BM25F contribution into the buffer (indexed by slot). Terms no
   * tool holds cost nothing. A term's saturated term frequencies are computed once and reused until
   * the index or the weights change, so a query costs one multiply-add per matching tool.
   */
  accumulate(query: WeightedTerms, fw: FieldWeights, into: ScoreBuffer): void {
    if (this.live === 0) return;
    into.ensure(this.slots.length);
    if (fw !== this.cachedWeights) {
      this.cachedWeights = fw;
      this.version += 1;
    }
    for (const [id, qw] of query) {
      if (qw === 0 || this.store.df(id) === 0) continue;
      const sat = this.saturated(id, fw);
      const w = qw * this.idf(id);
      const { flat, begin, length, extra } = this.store.segment(id);
      let j = 0;
      for (let i = begin; i < begin + length; i += 2, j += 1) {
        const v = sat[j] as number;
        if (v > 0) into.add(flat[i] as number, w * v);
      }
      if (extra) {
        for (let i = 0; i < extra.length; i += 2, j += 1) {
          const v = sat[j] as number;
          if (v > 0) into.add(extra[i] as number, w * v);
        }
      }
    }
  }

  /** BM25F's saturated, length-normalised term frequency of a term in each tool holding it (cached). */
  private saturated(id: number, fw: FieldWeights): Float64Array {
    const cached = this.satCache[id];
    if (cached && this.satVersion[id] === this.version) return cached;
    const norm = new Float64Array(NF);
    const keep = new Float64Array(NF);
    const weight = new Float64Array(NF);
    for (let f = 0; f < NF; f += 1) {
      const avg = (this.lengthSums[f] ?? 0) / this.live;
      const b = fw.b[f] ?? 0;
      norm[f] = avg > 0 ? b / avg : 0;
      keep[f] = 1 - b;
      weight[f] = fw.weight[f] ?? 0;
    }
    const k1 = fw.k1;
    const n = this.store.df(id);
    const out = cached && cached.length === n ? cached : new Float64Array(n);
    this.store.forEach(id, (slot, at, k) => {
      const entry = this.slots[slot] as Entry;
      const base = at * NF;
      let tf = 0;
      for (let f = 0; f < NF; f += 1) {
        const c = entry.tfs[base + f] as number;
        if (c !== 0)
          tf +=
            ((weight[f] as number) * c) /
            ((keep[f] as number) + (norm[f] as number) * (entry.lengths[f] as number));
      }
      out[k] = tf > 0 ? (tf * (k1 + 1)) / (k1 + tf) : 0;
    });
    this.satCache[id] = out;
    this.satVersion[id] = this.version;
    return out;
  }

  /** Makes the per-upsert scratch arrays big enough for the vocabulary and `terms` term occurrences. */
  private growScratch(terms: number): void {
    const vocab = this.store.termCount;
    if (this.seenStamp.length < vocab) {
      const size = Math.max(vocab, this.seenStamp.length * 2, 1024);
      const stamps = new Int32Array(size);
      stamps.set(this.seenStamp);
      this.seenStamp = stamps;
      const at = new Int32Array(size);
      at.set(this.seenAt);
      this.seenAt = at;
    }
    if (this.scratchCounts.length < terms * NF)
      this.scratchCounts = new Uint16Array(Math.max(terms * NF, this.scratchCounts.length * 2));
  }

  /** Term ids of words: stop words dropped and the rest stemmed when `analyse` is set. */
  private intern(ws: readonly string[], analyse: boolean): number[] {
    const out: number[] = [];
    for (const w of ws) {
      const t = analyse ? termOf(w) : w;
      if (t === '') continue;
      let id = this.ids.get(t);
      if (id === undefined) {
        id = this.newTerm(false);
        this.ids.set(t, id);
      }
      out.push(id);
    }
    return out;
  }

  private internPairs(ids: readonly number[], out: number[]): void {
    for (let i = 1; i < ids.length; i += 1) {
      const a = ids[i - 1] as number;
      const b = ids[i] as number;
      let id = this.pairIds.get(a, b);
      if (id < 0) {
        id = this.newTerm(true);
        this.pairIds.set(a, b, id);
      }
      out.push(id);
    }
  }

  private newTerm(pair: boolean): number {
    this.store.newTerm();
    this.pairTerm.push(pair);
    return this.store.termCount - 1;
  }
}
