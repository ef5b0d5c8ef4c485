import { clauses } from './clauses.js';
import { DeferredTerms } from './deferred-terms.js';
import type { DenseQuery } from './dense-fusion.js';
import type { FieldWeights, WeightedTerms } from './field-weights.js';
import { QueryExpander } from './query-expansion.js';
import { DEFAULT_RANKING, type RankingSettings } from './ranking-settings.js';
import { requestText } from './request-text.js';
import { ScoreBuffer } from './score-buffer.js';
import { words } from './tokenize.js';
import { STOP, type TermCounts, type ToolIndex } from './tool-index.js';
import { FIELDS } from './tool-text.js';
import { type Ranked, TopK } from './top-k.js';
import { valueTypeWords } from './value-types.js';

const NF = FIELDS.length;
/** Tools (best first) that the name-coverage bonus is computed for. */
const NAME_COVERAGE_READ = 128;
/** A query term adding less than this share of what its strongest term adds is not scored (see `score`). */
const TERM_FLOOR = 1e-3;
/** The word ranking's best tools that are compared by embedding exactly even when a large pool is not. */
export const DENSE_LEADERS = 256;
/** Terms held by at least this many tools (and a quarter of them) are added only to tools other terms reach. */
const DEFER_MIN_TOOLS = 256;

/** The weighted term ids of a query's words (words no tool holds are dropped), plus adjacent pairs. */
export function queryTerms(
  index: ToolIndex,
  ws: readonly string[],
  settings: RankingSettings,
): WeightedTerms {
  // -1 marks a word no tool holds: it breaks a pair. Stop words are left out altogether.
  const ids: number[] = [];
  for (const w of ws) {
    const id = index.queryTermId(w);
    if (id !== STOP) ids.push(id);
  }
  // Each term's count first, then its weight (set in place: the terms keep their first-seen order).
  const out: WeightedTerms = new Map();
  for (const id of ids) if (id >= 0) out.set(id, (out.get(id) ?? 0) + 1);
  out.forEach((n, id) => {
    out.set(id, n ** settings.queryTfPower);
  });
  if (settings.pairWeight > 0) {
    for (let i = 1; i < ids.length; i += 1) {
      const a = ids[i - 1] as number;
      const b = ids[i] as number;
      const pair = a < 0 || b < 0 ? undefined : index.pairId(a, b);
      if (pair !== undefined) out.set(pair, settings.pairWeight);
    }
  }
  if (settings.compoundWeight > 0 && index.analyzer === 'standard') {
    // "data base", "log in", "e mail": the two words written as one, when some tool writes them so.
    for (let i = 1; i < ws.length; i += 1) {
      const id = index.wordTermId(`${ws[i - 1]}${ws[i]}`);
      if (id !== undefined && !out.has(id)) out.set(id, settings.compoundWeight);
    }
  }
  return out;
}

/**
 * Ranks tools for a request: BM25F over name, description, parameters, group and word pairs; lexicon
 * expansion for words no tool uses; a bonus for tools whose name the request covers; each clause of a
 * multi-part request ranked too; pseudo-relevance feedback for the tail of the list.
 */
export class Ranker {
  /**
   * The whole request's scores (feedback terms are added into it), one clause's, and the clause and
   * embedding sums fused in: reused, so nothing is allocated per tool.
   */
  private readonly pass = new ScoreBuffer();
  private readonly second = new ScoreBuffer();
  private readonly extra = new ScoreBuffer();
  private readonly picker: TopK;
  private readonly farPicker: TopK;
  private readonly leaderPicker: TopK;
  /** Query weight by term id, filled while name coverage is read (zero otherwise). */
  private queryWeight = new Float64Array(0);
  /** Feedback scratch: weight per term id (valid where the stamp is this round's), per-term weights. */
  private acc = new Float64Array(0);
  private accStamp = new Int32Array(0);
  private accRound = 0;
  /**
   * Each tool's field-weighted term frequencies and their total, as feedback reads them: they depend
   * only on the tool and the field weights, so they are worked out once per tool while the index
   * stays the same (one entry per tool at most; cleared when the index changes).
   */
  private weightedTfs: (Float64Array | undefined)[] = [];
  private weightedTotals = new Float64Array(0);
  private weightedGeneration = -1;
  /** Scratch for `score`: the idf of each query term, in the query's order. */
  private idfs = new Float64Array(0);
  /** Scratch for `feedback`: each touched term's weight, and their places sorted by weight. */
  private weightOf = new Float64Array(0);
  private readonly feedbackOrder: number[] = [];
  /** The terms of a query that `score` reads (reused: one map for the ranker's life). */
  private readonly informative: WeightedTerms = new Map();
  /** The whole request's pass's near-universal terms, added only where they can change the cut. */
  private readonly deferred = new DeferredTerms();
  /** One object for the ranker's life: the index caches per-term work while it stays the same. */
  private readonly weights: FieldWeights;
  private readonly expander: QueryExpander;

  constructor(
    readonly index: ToolIndex,
    readonly settings: RankingSettings = DEFAULT_RANKING,
    /** Orders two slots whose scores tie (negative: `a` first). */
    tie: (a: number, b: number) => number = (a, b) => a - b,
  ) {
    this.weights = { weight: settings.fieldWeight, b: settings.fieldB, k1: settings.k1 };
    this.expander = new QueryExpander(index, settings);
    this.picker = new TopK(tie);
    this.farPicker = new TopK(tie);
    this.leaderPicker = new TopK(tie);
  }

  /**
   * The tools whose score is above zero, best first; at most `limit` of them. With `dense` (an
   * embedding of the query and of the tools), similarity of meaning is fused into the scores. A very
   * long query is read by its head and tail (`requestText`).
   */
  rank(query: string, limit = Number.POSITIVE_INFINITY, dense?: DenseQuery): Ranked[] {
    try {
      return this.rankInto(requestText(query), limit, dense);
    } finally {
      this.pass.reset();
      this.second.reset();
      this.extra.reset();
    }
  }

  private rankInto(query: string, limit: number, dense: DenseQuery | undefined): Ranked[] {
    const s = this.settings;
    const parts = s.clauseWeight > 0 ? clauses(query) : [];
    // Fused passes read every scored tool; an unlimited ranking reads them all anyway.
    const fusing = parts.length >= 2 || (dense !== undefined && s.embeddingWeight > 0);
    // Below DEFER_MIN_TOOLS tools no term is held by enough of them to be deferred (see `score`):
    // the pass is whole from the start, which spares marking the tools each term reaches.
    const defer = !fusing && Number.isFinite(limit) && this.index.size >= DEFER_MIN_TOOLS;
    this.deferred.begin(this.index.capacity, this.index.termCount, defer);
    const q = this.weighted(query);
    this.score(q, this.pass);
    // Clause rankings and embedding similarity are summed once and fused into every pass.
    let fused = false;
    if (parts.length >= 2 && this.pass.count > 0) {
      fused = true;
      for (const part of parts) {
        this.second.reset();
        const pq = this.weighted(part);
        this.score(pq, this.second);
        addScaled(this.extra, this.second, s.clauseWeight);
      }
    }
    if (dense && s.embeddingWeight > 0) {
      fused = true;
      dense.addTo(this.extra, s.embeddingWeight, () => this.wordLeaders());
    }
    const feedback = s.feedbackDocs > 0 && s.feedbackWeight > 0;
    const keepCount = Math.min(limit, Math.max(s.feedbackKeep, parts.length * s.clauseKeep));
    // With feedback only the kept places and the tools feedback reads are taken from the head.
    const head = this.leaders(this.pass, q, feedback ? Math.max(keepCount, s.feedbackDocs) : limit, fused);
    if (feedback && head.length > 0) {
      // Feedback finds tools the words missed, but reorders the head badly: the head stays as it is.
      const keep = head.slice(0, keepCount);
      const added = this.feedback(head.slice(0, s.feedbackDocs), q);
      // Only the name-coverage bonus reads the query's terms again.
      if (s.nameCoverage > 0) for (const [id, w] of added) q.set(id, w);
      // BM25 sums over terms: the first pass plus the added terms is the expanded query's score.
      this.score(added, this.pass);
      const kept = new Set(keep.map((r) => r.slot));
      // Deeper places weigh each clause's own ranking too, so every part of a many-part request
      // reaches the list; the places above follow the whole request, which ranks its head better.
      const from = s.clauseTailFrom - keep.length;
      const farLimit = limit + keep.length + Math.max(0, from);
      // Both orders of the pass are read in one sweep when the second needs no more than the first.
      const together = fused && from < limit && s.nameCoverage > 0 && farLimit <= NAME_COVERAGE_READ;
      if (together) this.gatherBoth(Math.max(limit + keep.length, NAME_COVERAGE_READ));
      const rest = (
        together
          ? this.covered(this.picker, q, limit + keep.length)
          : this.leaders(this.pass, q, limit + keep.length, false)
      ).filter((r) => !kept.has(r.slot));
      if (!fused || from >= rest.length || from >= limit) return stitch([keep, rest], limit);
      const near = rest.slice(0, Math.max(0, from));
      for (const r of near) kept.add(r.slot);
      const far = (
        together
          ? this.covered(this.farPicker, q, limit + kept.size)
          : this.leaders(this.pass, q, limit + kept.size, true)
      ).filter((r) => !kept.has(r.slot));
      return stitch([keep, near, far], limit);
    }
    return head.slice(0, limit);
  }

  /**
   * The best `limit` tools of a buffer, after the bonus for tools whose name the query covers. The
   * bonus only lifts scores, so it can only reorder the leaders: only they are read.
   */
  private leaders(buf: ScoreBuffer, q: WeightedTerms, limit: number, fused: boolean): Ranked[] {
    const s = this.settings;
    // Fused: the pass scaled so its best tool scores 1, plus the clause and embedding sums.
    const divisor = fused ? bestOf(buf) : 1;
    const plus = fused ? this.extra : undefined;
    if (s.nameCoverage <= 0) return this.picker.best(this.gather(buf, limit, divisor, plus));
    this.gather(buf, Math.max(limit, NAME_COVERAGE_READ), divisor, plus);
    return this.covered(this.picker, q, limit);
  }

  /**
   * `picker` keeps the best `n` of a buffer. When the pass's deferred terms could lift a tool they
   * were not added to into the cut, the pass is completed first and gathered again.
   */
  private gather(buf: ScoreBuffer, n: number, divisor: number, plus: ScoreBuffer | undefined): number {
    const kept = this.picker.gather(buf, n, divisor, plus);
    const deferred = this.deferred;
    if (buf !== this.pass || deferred.whole || n === 0) return kept;
    if (kept >= n && deferred.below(this.picker.worst())) return kept;
    this.index.complete(this.weights, buf, deferred);
    return this.picker.gather(buf, n, divisor, plus);
  }

  /** The best `limit` of what a picker gathered, after the name-coverage bonus. */
  private covered(picker: TopK, q: WeightedTerms, limit: number): Ranked[] {
    const s = this.settings;
    const n = this.index.termCount;
    if (this.queryWeight.length < n) this.queryWeight = new Float64Array(n * 2);
    const weight = this.queryWeight;
    q.forEach((w, id) => {
      weight[id] = w;
    });
    picker.rescore((slot) => 1 + s.nameCoverage * this.index.nameCoverage(slot, weight));
    for (const id of q.keys()) weight[id] = 0;
    return picker.best(limit);
  }

  /**
   * One sweep of the whole request's pass into two pickers: its own scores (`picker`) and the same
   * fused with the clause and embedding sums (`farPicker`), `cap` each.
   */
  private gatherBoth(cap: number): void {
    const { pass, extra, picker, farPicker } = this;
    const divisor = bestOf(pass);
    picker.begin(cap);
    farPicker.begin(cap);
    const all = pass.scores;
    const plus = extra.scores;
    for (let i = 0; i < pass.count; i += 1) {
      const slot = pass.slots[i] as number;
      const score = all[slot] as number;
      picker.consider(slot, score);
      farPicker.consider(slot, score / divisor + (plus[slot] as number));
    }
    for (let i = 0; i < extra.count; i += 1) {
      const slot = extra.slots[i] as number;
      if (!pass.has(slot)) farPicker.consider(slot, plus[slot] as number);
    }
  }

  /** The slots of the whole request's best word matches (`DENSE_LEADERS` of them). */
  private wordLeaders(): Int32Array {
    this.leaderPicker.gather(this.pass, DENSE_LEADERS);
    return this.leaderPicker.kept();
  }

  /** The query's own terms plus lexicon expansions. */
  private weighted(text: string): WeightedTerms {
    const ws = words(text);
    const q = queryTerms(this.index, ws, this.settings);
    this.expander.expand(text, ws, q);
    if (this.settings.valueTypeWeight > 0)
      for (const w of valueTypeWords(text)) {
        const t = this.index.terms(w)[0];
        const id = t === undefined ? undefined : this.index.termId(t);
        if (id !== undefined && !q.has(id)) q.set(id, this.settings.valueTypeWeight);
      }
    return q;
  }

  /**
   * BM25F over the index into `buf`, leaving out the terms that would add less than `TERM_FLOOR` of
   * what the query's strongest term adds. A word (nearly) every tool holds has an idf near zero: it
   * adds a rounding error to each score, yet scoring it reads (nearly) every tool's postings, and
   * feedback brings such words back by the dozen (at 10,000 tools they were four fifths of a
   * ranking's work, and gave every tool a sliver of a score that then had to be sorted).
   */
  private score(q: WeightedTerms, buf: ScoreBuffer): void {
    const index = this.index;
    if (this.idfs.length < q.size) this.idfs = new Float64Array(q.size * 2);
    const idfs = this.idfs;
    let strongest = 0;
    let i = 0;
    q.forEach((w, id) => {
      const idf = index.idf(id);
      idfs[i++] = idf;
      strongest = Math.max(strongest, w * idf);
    });
    const floor = TERM_FLOOR * strongest;
    // Most queries keep every term: the kept map is only filled when some term falls below the floor.
    let below = false;
    i = 0;
    for (const w of q.values()) if (!(w * (idfs[i++] as number) >= floor)) below = true;
    const kept = this.informative;
    kept.clear();
    if (below) {
      i = 0;
      q.forEach((w, id) => {
        if (w * (idfs[i++] as number) >= floor) kept.set(id, w);
      });
    }
    const terms = below ? kept : q;
    if (buf === this.pass && !this.deferred.whole) {
      const deferFrom = Math.max(DEFER_MIN_TOOLS, Math.ceil(index.size / 4));
      index.accumulateDeferring(terms, this.weights, buf, this.deferred, deferFrom);
    } else index.accumulate(terms, this.weights, buf);
    kept.clear();
  }

  /** Words the best-ranked tools share, weighted by rank and rarity, that the query does not hold. */
  private feedback(top: readonly Ranked[], q: WeightedTerms): WeightedTerms {
    const s = this.settings;
    const n = this.index.termCount;
    if (this.acc.length < n) {
      this.acc = new Float64Array(n * 2);
      this.accStamp = new Int32Array(n * 2);
    }
    const { acc, accStamp } = this;
    const stamp = ++this.accRound;
    // First-touched order, as the terms are met: equal weights keep it when sorted.
    const touched: number[] = [];
    const best = top[0]?.score ?? 1;
    const docs = Math.min(top.length, s.feedbackDocs);
    for (let d = 0; d < docs; d += 1) {
      const r = top[d] as Ranked;
      const counts = this.index.termsOf(r.slot);
      if (!counts) continue;
      const { terms, start, count } = counts;
      const weighted = this.weightedTfsOf(r.slot, counts);
      const total = this.weightedTotals[r.slot] as number;
      if (total === 0) continue;
      for (let j = 0; j < count; j += 1) {
        const id = terms[start + j] as number;
        if (q.has(id) || this.index.isPair(id)) continue;
        if (accStamp[id] !== stamp) {
          accStamp[id] = stamp;
          acc[id] = 0;
          touched.push(id);
        }
        acc[id] = (acc[id] as number) + ((r.score / best) * (weighted[j] as number)) / total;
      }
    }
    if (this.weightOf.length < touched.length) this.weightOf = new Float64Array(touched.length * 2);
    const weightOf = this.weightOf;
    for (let i = 0; i < touched.length; i += 1) {
      const id = touched[i] as number;
      weightOf[i] = (acc[id] as number) * this.index.idf(id);
    }
    const order = this.feedbackOrder;
    order.length = touched.length;
    for (let i = 0; i < touched.length; i += 1) order[i] = i;
    // Heaviest first; equal weights stay in first-touched order (the sort is stable).
    order.sort((a, b) => (weightOf[b] as number) - (weightOf[a] as number));
    const picked = Math.min(order.length, s.feedbackTerms);
    const max = picked > 0 ? (weightOf[order[0] as number] as number) : 1;
    const out: WeightedTerms = new Map();
    for (let p = 0; p < picked; p += 1) {
      const i = order[p] as number;
      out.set(touched[i] as number, (s.feedbackWeight * (weightOf[i] as number)) / max);
    }
    return out;
  }

  /**
   * A tool's term frequencies weighted by field, in its term order (`weightedTotals` holds their
   * sum): worked out on the tool's first feedback read since the index last changed.
   */
  private weightedTfsOf(slot: number, counts: TermCounts): Float64Array {
    const generation = this.index.generation;
    if (this.weightedGeneration !== generation) {
      this.weightedGeneration = generation;
      this.weightedTfs = [];
    }
    if (this.weightedTotals.length <= slot) {
      const totals = new Float64Array(Math.max(this.index.capacity, slot + 1) * 2);
      totals.set(this.weightedTotals);
      this.weightedTotals = totals;
    }
    const cached = this.weightedTfs[slot];
    if (cached !== undefined) return cached;
    const { tfs, start, count } = counts;
    const fieldWeight = this.settings.fieldWeight;
    const weighted = new Float64Array(count);
    let total = 0;
    for (let j = 0; j < count; j += 1) {
      let c = 0;
      for (let f = 0; f < NF; f += 1) c += (tfs[(start + j) * NF + f] as number) * (fieldWeight[f] ?? 0);
      weighted[j] = c;
      total += c;
    }
    this.weightedTfs[slot] = weighted;
    this.weightedTotals[slot] = total;
    return weighted;
  }
}

/**
 * Joins ranked runs in order (skipping what an earlier run holds), up to `limit`. Runs come from
 * passes with different scales: each is scaled so it starts no higher than the one before ends, and
 * scores never rise along the list.
 */
function stitch(runs: readonly (readonly Ranked[])[], limit: number): Ranked[] {
  const out: Ranked[] = [];
  let last = Number.POSITIVE_INFINITY;
  for (const run of runs) {
    const first = run[0]?.score ?? 0;
    const scale = first > last && first > 0 ? last / first : 1;
    for (const r of run) {
      if (out.length >= limit) return out;
      last = Math.min(last, r.score * scale);
      out.push(
        r.score * scale === last
          ? scale === 1
            ? r
            : { slot: r.slot, score: last }
          : { slot: r.slot, score: last },
      );
    }
  }
  return out;
}

/** The highest score in a buffer (1 when it holds none above zero, so dividing by it is safe). */
function bestOf(from: ScoreBuffer): number {
  let best = 0;
  for (let i = 0; i < from.count; i += 1)
    best = Math.max(best, from.scores[from.slots[i] as number] as number);
  return best > 0 ? best : 1;
}

/** Adds `from`'s scores into `into`, scaled so `from`'s best tool adds `weight`. */
function addScaled(into: ScoreBuffer, from: ScoreBuffer, weight: number): void {
  let best = 0;
  for (let i = 0; i < from.count; i += 1)
    best = Math.max(best, from.scores[from.slots[i] as number] as number);
  if (best <= 0) return;
  into.ensure(from.scores.length);
  for (let i = 0; i < from.count; i += 1) {
    const slot = from.slots[i] as number;
    into.add(slot, (weight * (from.scores[slot] as number)) / best);
  }
}
