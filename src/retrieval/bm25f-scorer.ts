import type { DeferredTerms } from './deferred-terms.js';
import type { FieldWeights, WeightedTerms } from './field-weights.js';
import type { PostingStore } from './posting-store.js';
import type { ScoreBuffer } from './score-buffer.js';
import type { ToolTerms } from './tool-terms.js';
import { FIELDS } from './tool-text.js';

const NF = FIELDS.length;

/** What the scorer reads from the index it scores. */
export interface ScoredCorpus {
  readonly store: PostingStore;
  readonly held: ToolTerms;
  /** Term count per field, summed over every tool. */
  readonly lengthSums: Float64Array;
  /** Tools indexed. */
  live(): number;
  /** Highest slot in use + 1. */
  capacity(): number;
  /** Changes with every change to the index. */
  version(): number;
}

/**
 * BM25F over an index's postings, with what it works out cached (idf per term, idf sums of names,
 * length normalisation per tool, saturated frequencies per term) until the index or the field
 * weights change.
 */
export class Bm25fScorer {
  /** Caches are valid while their stamp equals `stamp`, which moves when the index or weights change. */
  private stamp = 0;
  private seenVersion = -1;
  private seenWeights: FieldWeights | undefined;
  private readonly satCache: (Float64Array | undefined)[] = [];
  private readonly satVersion: number[] = [];
  /** Each cached term's highest saturated frequency (an upper bound for deferring it). */
  private readonly satBest: number[] = [];
  private denom = new Float64Array(0);
  private denomVersion = -1;
  private idfCache = new Float64Array(0);
  private idfStamp = new Int32Array(0);
  private nameSums = new Float64Array(0);
  private nameStamp = new Int32Array(0);
  /** Scratch for `catchUp`: where each deferred term sits in a tool's term list (-1: absent). */
  private found: number[] = [];
  /** Scratch for `catchUpFresh`: a tool is fresh in the current catch-up when its entry equals `freshRound`. */
  private freshMarks = new Int32Array(0);
  private freshRound = 0;

  constructor(private readonly corpus: ScoredCorpus) {}

  /** The current cache stamp (moved first if the index or, when given, the weights changed). */
  private current(fw?: FieldWeights): number {
    const v = this.corpus.version();
    if (v !== this.seenVersion || (fw !== undefined && fw !== this.seenWeights)) {
      this.seenVersion = v;
      if (fw !== undefined) this.seenWeights = fw;
      this.stamp += 1;
    }
    return this.stamp;
  }

  /** Inverse document frequency (BM25's, always positive). */
  idf(id: number): number {
    const stamp = this.current();
    if (this.idfStamp.length <= id) this.growIdfCache();
    if (this.idfStamp[id] === stamp) return this.idfCache[id] as number;
    const df = this.corpus.store.df(id);
    const idf = Math.log(1 + (this.corpus.live() - df + 0.5) / (df + 0.5));
    this.idfCache[id] = idf;
    this.idfStamp[id] = stamp;
    return idf;
  }

  /** Sum of the idf of a tool's name terms (cached until the index changes). */
  nameIdf(slot: number): number {
    const stamp = this.current();
    if (this.nameStamp.length <= slot) {
      const stamps = new Int32Array(Math.max(this.corpus.capacity(), 64) * 2).fill(-1);
      stamps.set(this.nameStamp);
      const sums = new Float64Array(stamps.length);
      sums.set(this.nameSums);
      this.nameStamp = stamps;
      this.nameSums = sums;
    }
    if (this.nameStamp[slot] === stamp) return this.nameSums[slot] as number;
    let sum = 0;
    const { names, nameStart, nameCount } = this.corpus.held;
    const from = nameStart[slot] as number;
    for (let i = from; i < from + (nameCount[slot] as number); i += 1) sum += this.idf(names[i] as number);
    this.nameSums[slot] = sum;
    this.nameStamp[slot] = stamp;
    return sum;
  }

  private growIdfCache(): void {
    const size = Math.max(this.corpus.store.termCount, 1024) * 2;
    const stamps = new Int32Array(size).fill(-1);
    stamps.set(this.idfStamp);
    const values = new Float64Array(size);
    values.set(this.idfCache);
    this.idfStamp = stamps;
    this.idfCache = values;
  }

  /**
   * Share (by idf) of a tool's name terms that a query holds, each counted up to weight 1; `weight`
   * holds the query's weight by term id (zero for terms it lacks).
   */
  nameCoverage(slot: number, weight: Float64Array): number {
    const all = this.nameIdf(slot);
    if (all <= 0) return 0;
    const { names, nameStart, nameCount } = this.corpus.held;
    const from = nameStart[slot] as number;
    let hit = 0;
    for (let i = from; i < from + (nameCount[slot] as number); i += 1) {
      const id = names[i] as number;
      const w = weight[id] as number;
      if (w !== 0) hit += this.idf(id) * Math.min(1, w);
    }
    return hit / all;
  }

  /**
   * Adds each weighted query term's BM25F contribution into the buffer (indexed by slot). Terms no
   * tool holds cost nothing. A term's saturated term frequencies are computed once and reused until
   * the index or the weights change, so a query costs one multiply-add per matching tool.
   */
  accumulate(query: WeightedTerms, fw: FieldWeights, into: ScoreBuffer): void {
    if (this.corpus.live() === 0) return;
    into.ensure(this.corpus.capacity());
    this.current(fw);
    const store = this.corpus.store;
    for (const [id, qw] of query) {
      if (qw === 0 || store.df(id) === 0) continue;
      this.addPostings(id, qw * this.idf(id), this.saturated(id, fw), into, undefined, 0);
    }
  }

  /**
   * `accumulate`, with the terms at least `deferFrom` tools hold (and a word that many tools hold
   * adds little) added only to the tools the other terms reach; see `DeferredTerms`. Each tool's
   * score is the same sum, in the same order, as `accumulate` makes. Called again in the same pass
   * (feedback terms), tools first reached then get the earlier deferred terms before the new ones.
   */
  accumulateDeferring(
    query: WeightedTerms,
    fw: FieldWeights,
    into: ScoreBuffer,
    deferred: DeferredTerms,
    deferFrom: number,
  ): void {
    if (deferred.whole) {
      this.accumulate(query, fw, into);
      return;
    }
    if (this.corpus.live() === 0) return;
    into.ensure(this.corpus.capacity());
    this.current(fw);
    const store = this.corpus.store;
    const before = deferred.ids.length;
    let reached = 0;
    for (const [id, qw] of query) if (qw !== 0 && store.df(id) > 0 && store.df(id) < deferFrom) reached += 1;
    if (reached === 0 && before === 0) {
      // Nothing marks the tools worth scoring in full: every tool is scored.
      deferred.whole = true;
      this.accumulate(query, fw, into);
      return;
    }
    // Mark the tools the other terms reach; those first reached now get the earlier deferred terms
    // (only a later round has earlier ones, so only it lists the newly marked).
    const { marks, round, fresh } = deferred;
    const listing = before > 0;
    let count = 0;
    query.forEach((qw, id) => {
      const df = store.df(id);
      if (qw === 0 || df === 0 || df >= deferFrom) return;
      store.forEach(id, (slot) => {
        if (marks[slot] !== round) {
          marks[slot] = round;
          if (listing) fresh[count++] = slot;
        }
      });
    });
    deferred.freshCount = count;
    if (count > 0) this.catchUpFresh(deferred, before, fw, into);
    for (const [id, qw] of query) {
      const df = store.df(id);
      if (qw === 0 || df === 0) continue;
      const sat = this.saturated(id, fw);
      const w = qw * this.idf(id);
      const all = df < deferFrom;
      if (!all) deferred.push(id, w, this.satBest[id] as number);
      this.addPostings(id, w, sat, into, all ? undefined : marks, round);
    }
  }

  /**
   * Adds `w` times each tool's saturated frequency of term `id` into the buffer; with `marks`, only
   * for the tools marked with `round`.
   */
  private addPostings(
    id: number,
    w: number,
    sat: Float64Array,
    into: ScoreBuffer,
    marks: Int32Array | undefined,
    round: number,
  ): void {
    const store = this.corpus.store;
    const flat = store.flat;
    const begin = store.begin(id);
    const length = store.length(id);
    const extra = store.extra(id);
    let j = 0;
    for (let i = begin; i < begin + length; i += 2, j += 1) {
      const v = sat[j] as number;
      const slot = flat[i] as number;
      if (v > 0 && (marks === undefined || marks[slot] === round)) into.add(slot, w * v);
    }
    if (extra) {
      for (let i = 0; i < extra.length; i += 2, j += 1) {
        const v = sat[j] as number;
        const slot = extra[i] as number;
        if (v > 0 && (marks === undefined || marks[slot] === round)) into.add(slot, w * v);
      }
    }
  }

  /** Adds the deferred terms to every tool not marked, so every tool's score is whole. */
  complete(fw: FieldWeights, into: ScoreBuffer, deferred: DeferredTerms): void {
    if (deferred.whole) return;
    deferred.whole = true;
    const store = this.corpus.store;
    const { marks, round } = deferred;
    for (let d = 0; d < deferred.ids.length; d += 1) {
      const id = deferred.ids[d] as number;
      const w = deferred.weights[d] as number;
      const sat = this.saturated(id, fw);
      store.forEach(id, (slot, _at, k) => {
        const v = sat[k] as number;
        if (v > 0 && marks[slot] !== round) into.add(slot, w * v);
      });
    }
  }

  /**
   * Adds the first `count` deferred terms to the tools `deferred.fresh` holds (newly marked), each
   * tool's in their order. Whichever reads less: the fresh tools' own term lists, or the deferred
   * terms' postings (a few common words, against hundreds of tools that feedback reached, each with
   * dozens of terms). Both add the same products in the same order to each tool.
   */
  private catchUpFresh(deferred: DeferredTerms, count: number, fw: FieldWeights, into: ScoreBuffer): void {
    const { fresh, freshCount } = deferred;
    const held = this.corpus.held.count;
    const store = this.corpus.store;
    let byTools = 0;
    for (let f = 0; f < freshCount; f += 1) byTools += held[fresh[f] as number] as number;
    let byPostings = 0;
    for (let p = 0; p < count; p += 1) byPostings += store.df(deferred.ids[p] as number);
    if (byTools <= byPostings) {
      for (let f = 0; f < freshCount; f += 1) this.catchUp(fresh[f] as number, deferred, count, fw, into);
      return;
    }
    const capacity = this.corpus.capacity();
    if (this.freshMarks.length < capacity) this.freshMarks = new Int32Array(capacity * 2);
    const marks = this.freshMarks;
    const round = ++this.freshRound;
    for (let f = 0; f < freshCount; f += 1) marks[fresh[f] as number] = round;
    for (let p = 0; p < count; p += 1) {
      const id = deferred.ids[p] as number;
      const w = deferred.weights[p] as number;
      // The term's saturated frequencies were cached when its first round added it to the marked tools.
      this.addPostings(id, w, this.saturated(id, fw), into, marks, round);
    }
  }

  /** Adds the first `count` deferred terms a newly marked tool holds, in their order. */
  private catchUp(
    slot: number,
    deferred: DeferredTerms,
    count: number,
    fw: FieldWeights,
    into: ScoreBuffer,
  ): void {
    const { terms, tfs, start } = this.corpus.held;
    const from = start[slot] as number;
    const n = this.corpus.held.count[slot] as number;
    const found = this.found;
    while (found.length < count) found.push(-1);
    found.fill(-1, 0, count);
    let any = false;
    for (let j = 0; j < n; j += 1) {
      const p = deferred.placeOf(terms[from + j] as number);
      if (p >= 0 && p < count) {
        found[p] = j;
        any = true;
      }
    }
    if (!any) return;
    const denom = this.denominators(fw);
    for (let p = 0; p < count; p += 1) {
      const j = found[p] as number;
      if (j < 0) continue;
      const v = saturatedAt(tfs, (from + j) * NF, slot, fw, denom);
      if (v > 0) into.add(slot, (deferred.weights[p] as number) * v);
    }
  }

  /** BM25F's saturated, length-normalised term frequency of a term in each tool holding it (cached). */
  private saturated(id: number, fw: FieldWeights): Float64Array {
    const cached = this.satCache[id];
    const stamp = this.current(fw);
    if (cached && this.satVersion[id] === stamp) return cached;
    const denom = this.denominators(fw);
    const store = this.corpus.store;
    const n = store.df(id);
    const out = cached && cached.length === n ? cached : new Float64Array(n);
    const { tfs, start } = this.corpus.held;
    const flat = store.flat;
    const begin = store.begin(id);
    const end = begin + store.length(id);
    const extra = store.extra(id);
    let k = 0;
    let best = 0;
    for (let i = begin; i < end + (extra?.length ?? 0); i += 2, k += 1) {
      const slot = (i < end ? flat[i] : extra?.[i - end]) as number;
      const at = (i < end ? flat[i + 1] : extra?.[i - end + 1]) as number;
      const v = saturatedAt(tfs, ((start[slot] as number) + at) * NF, slot, fw, denom);
      out[k] = v;
      if (v > best) best = v;
    }
    this.satCache[id] = out;
    this.satVersion[id] = stamp;
    this.satBest[id] = best;
    return out;
  }

  /**
   * BM25F's length normalisation per slot and field, `(1 - b) + b * length / average`, worked out
   * once per index version for every tool instead of for every posting of every term.
   */
  private denominators(fw: FieldWeights): Float64Array {
    const stamp = this.current(fw);
    if (this.denomVersion === stamp) return this.denom;
    const capacity = this.corpus.capacity();
    const size = capacity * NF;
    if (this.denom.length < size) this.denom = new Float64Array(size * 2);
    const norm = new Float64Array(NF);
    const keep = new Float64Array(NF);
    for (let f = 0; f < NF; f += 1) {
      const avg = (this.corpus.lengthSums[f] ?? 0) / this.corpus.live();
      const b = fw.b[f] ?? 0;
      norm[f] = avg > 0 ? b / avg : 0;
      keep[f] = 1 - b;
    }
    const lengths = this.corpus.held.lengths;
    for (let slot = 0; slot < capacity; slot += 1)
      for (let f = 0; f < NF; f += 1)
        this.denom[slot * NF + f] =
          (keep[f] as number) + (norm[f] as number) * (lengths[slot * NF + f] as number);
    this.denomVersion = stamp;
    return this.denom;
  }
}

/**
 * BM25F's saturated frequency of the term whose field counts start at `base` of `tfs`, in `slot`:
 * one function for the cached lists and for single tools, so both give the same number.
 */
function saturatedAt(
  tfs: Uint16Array,
  base: number,
  slot: number,
  fw: FieldWeights,
  denom: Float64Array,
): number {
  const weight = fw.weight;
  let tf = 0;
  for (let f = 0; f < NF; f += 1) {
    const c = tfs[base + f] as number;
    if (c !== 0) tf += ((weight[f] ?? 0) * c) / (denom[slot * NF + f] as number);
  }
  return tf > 0 ? (tf * (fw.k1 + 1)) / (fw.k1 + tf) : 0;
}
