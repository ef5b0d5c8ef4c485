import { addDense, type DenseQuery } from './dense-fusion.js';
import { expandQuery } from './query-expansion.js';
import { DEFAULT_RANKING, type RankingSettings } from './ranking-settings.js';
import { ScoreBuffer } from './score-buffer.js';
import { termOf, terms, words } from './tokenize.js';
import type { FieldWeights, ToolIndex, WeightedTerms } from './tool-index.js';
import { FIELDS } from './tool-text.js';
import { valueTypeWords } from './value-types.js';

const NF = FIELDS.length;
/** Tools (best first) that the name-coverage bonus is computed for. */
const NAME_COVERAGE_READ = 128;

/** One ranked tool: its index slot and score. */
export interface Ranked {
  readonly slot: number;
  readonly score: number;
}

/** The weighted term ids of a query text (terms no tool holds are dropped), plus adjacent pairs. */
export function queryTerms(index: ToolIndex, text: string, settings: RankingSettings): WeightedTerms {
  const ids: (number | undefined)[] = index.terms(text).map((t) => index.termId(t));
  const counts = new Map<number, number>();
  for (const id of ids) if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
  const out: WeightedTerms = new Map();
  for (const [id, n] of counts) out.set(id, n ** settings.queryTfPower);
  if (settings.pairWeight > 0) {
    for (let i = 1; i < ids.length; i += 1) {
      const a = ids[i - 1];
      const b = ids[i];
      const pair = a === undefined || b === undefined ? undefined : index.pairId(a, b);
      if (pair !== undefined) out.set(pair, settings.pairWeight);
    }
  }
  if (settings.compoundWeight > 0 && index.analyzer === 'standard') {
    // "data base", "log in", "e mail": the two words written as one, when some tool writes them so.
    const ws = words(text);
    for (let i = 1; i < ws.length; i += 1) {
      const t = termOf(`${ws[i - 1]}${ws[i]}`);
      const id = t === '' ? undefined : index.termId(t);
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
  /** One pass's scores, the combined scores, and a second pass's (clauses, feedback): no allocation per tool. */
  private readonly pass = new ScoreBuffer();
  private readonly combined = new ScoreBuffer();
  private readonly second = new ScoreBuffer();
  private readonly extra = new ScoreBuffer();
  private scratch = new Float64Array(0);
  /** One object for the ranker's life: the index caches per-term work while it stays the same. */
  private readonly weights: FieldWeights;

  constructor(
    readonly index: ToolIndex,
    readonly settings: RankingSettings = DEFAULT_RANKING,
    /** Orders two slots whose scores tie (negative: `a` first). */
    private readonly tie: (a: number, b: number) => number = (a, b) => a - b,
  ) {
    this.weights = { weight: settings.fieldWeight, b: settings.fieldB, k1: settings.k1 };
  }

  /**
   * The tools whose score is above zero, best first; at most `limit` of them. With `dense` (an
   * embedding of the query and of the tools), similarity of meaning is fused into the scores.
   */
  rank(query: string, limit = Number.POSITIVE_INFINITY, dense?: DenseQuery): Ranked[] {
    try {
      return this.rankInto(query, limit, dense);
    } finally {
      this.pass.reset();
      this.combined.reset();
      this.second.reset();
      this.extra.reset();
    }
  }

  private rankInto(query: string, limit: number, dense: DenseQuery | undefined): Ranked[] {
    const s = this.settings;
    const q = this.weighted(query);
    this.score(q, this.pass);
    const parts = s.clauseWeight > 0 ? clauses(query) : [];
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
      addDense(this.extra, dense, s.embeddingWeight);
    }
    const head = this.leaders(fused ? this.fuse(this.pass) : this.pass, q, limit);
    if (s.feedbackDocs > 0 && s.feedbackWeight > 0 && head.length > 0) {
      // Feedback finds tools the words missed, but reorders the head badly: the head stays as it is.
      const keep = head.slice(0, Math.min(limit, Math.max(s.feedbackKeep, parts.length * s.clauseKeep)));
      for (const [id, w] of this.feedback(head.slice(0, s.feedbackDocs), q)) q.set(id, w);
      this.second.reset();
      this.score(q, this.second);
      const kept = new Set(keep.map((r) => r.slot));
      const rest = this.leaders(this.second, q, limit + keep.length).filter((r) => !kept.has(r.slot));
      // Deeper places weigh each clause's own ranking too, so every part of a many-part request
      // reaches the list; the places above follow the whole request, which ranks its head better.
      const from = s.clauseTailFrom - keep.length;
      if (!fused || from >= rest.length || from >= limit) return stitch([keep, rest], limit);
      const near = rest.slice(0, Math.max(0, from));
      for (const r of near) kept.add(r.slot);
      const far = this.leaders(this.fuse(this.second), q, limit + kept.size).filter((r) => !kept.has(r.slot));
      return stitch([keep, near, far], limit);
    }
    return head.slice(0, limit);
  }

  /** The combined buffer: a pass scaled so its best tool scores 1, plus the clause and embedding sums. */
  private fuse(from: ScoreBuffer): ScoreBuffer {
    this.combined.reset();
    addScaled(this.combined, from, 1);
    addScaled(this.combined, this.extra, Number.NaN);
    return this.combined;
  }

  /**
   * The best `limit` tools of a buffer, after the bonus for tools whose name the query covers. The
   * bonus only lifts scores, so it can only reorder the leaders: only they are read.
   */
  private leaders(buf: ScoreBuffer, q: WeightedTerms, limit: number): Ranked[] {
    const s = this.settings;
    if (s.nameCoverage <= 0) return this.top(buf, limit);
    const out = this.top(buf, Math.max(limit, NAME_COVERAGE_READ));
    const covered = out.map((r) => ({
      slot: r.slot,
      score: r.score * (1 + s.nameCoverage * this.index.nameCoverage(r.slot, q)),
    }));
    return covered.sort((a, b) => b.score - a.score || this.tie(a.slot, b.slot)).slice(0, limit);
  }

  /** The `n` best scored slots of a buffer, sorted (score, then the tie-break). */
  private top(buf: ScoreBuffer, n: number): Ranked[] {
    const order = (a: Ranked, b: Ranked): number => b.score - a.score || this.tie(a.slot, b.slot);
    if (n <= 0 || buf.count === 0) return [];
    const threshold = this.kthScore(buf, n);
    const out: Ranked[] = [];
    // Near-identical tools tie in numbers: those at the threshold are ordered by the tie-break alone,
    // and only as many as there is room for become results.
    const atThreshold: number[] = [];
    for (let i = 0; i < buf.count; i += 1) {
      const slot = buf.slots[i] as number;
      const score = buf.scores[slot] as number;
      if (score <= 0 || score < threshold) continue;
      if (score > threshold) out.push({ slot, score });
      else atThreshold.push(slot);
    }
    if (atThreshold.length > 0) {
      const room = n - out.length;
      if (atThreshold.length > room) atThreshold.sort((a, b) => this.tie(a, b));
      for (let i = 0; i < Math.min(room, atThreshold.length); i += 1) {
        out.push({ slot: atThreshold[i] as number, score: threshold });
      }
    }
    return out.sort(order).slice(0, n);
  }

  /** The query's own terms plus lexicon expansions. */
  private weighted(text: string): WeightedTerms {
    const q = queryTerms(this.index, text, this.settings);
    expandQuery(this.index, text, q, this.settings);
    if (this.settings.valueTypeWeight > 0)
      for (const w of valueTypeWords(text)) {
        const t = this.index.terms(w)[0];
        const id = t === undefined ? undefined : this.index.termId(t);
        if (id !== undefined && !q.has(id)) q.set(id, this.settings.valueTypeWeight);
      }
    return q;
  }

  /** BM25F over the index into `buf`. */
  private score(q: WeightedTerms, buf: ScoreBuffer): void {
    this.index.accumulate(q, this.weights, buf);
  }

  /** The n-th highest score in a buffer (-∞ when it holds fewer than n). */
  private kthScore(buf: ScoreBuffer, n: number): number {
    const count = buf.count;
    if (n >= count) return Number.NEGATIVE_INFINITY;
    if (this.scratch.length < count) this.scratch = new Float64Array(count * 2);
    const view = this.scratch.subarray(0, count);
    for (let i = 0; i < count; i += 1) view[i] = buf.scores[buf.slots[i] as number] as number;
    return nthLargest(view, n);
  }

  /** Words the best-ranked tools share, weighted by rank and rarity, that the query does not hold. */
  private feedback(top: readonly Ranked[], q: WeightedTerms): WeightedTerms {
    const s = this.settings;
    const acc = new Map<number, number>();
    const best = top[0]?.score ?? 1;
    for (const r of top.slice(0, s.feedbackDocs)) {
      const counts = this.index.termsOf(r.slot);
      if (!counts) continue;
      const { terms, tfs, start, count } = counts;
      const weighted = new Float64Array(count);
      let total = 0;
      for (let j = 0; j < count; j += 1) {
        let c = 0;
        for (let f = 0; f < NF; f += 1) c += (tfs[(start + j) * NF + f] ?? 0) * (s.fieldWeight[f] ?? 0);
        weighted[j] = c;
        total += c;
      }
      if (total === 0) continue;
      for (let j = 0; j < count; j += 1) {
        const id = terms[start + j] as number;
        if (q.has(id) || this.index.isPair(id)) continue;
        acc.set(id, (acc.get(id) ?? 0) + ((r.score / best) * (weighted[j] ?? 0)) / total);
      }
    }
    const scored = [...acc].map(([id, w]) => [id, w * this.index.idf(id)] as const);
    scored.sort((a, b) => b[1] - a[1]);
    const picked = scored.slice(0, s.feedbackTerms);
    const max = picked[0]?.[1] ?? 1;
    return new Map(picked.map(([id, w]) => [id, (s.feedbackWeight * w) / max]));
  }
}

/** The n-th largest value (1-based) of `a`, found in linear expected time; reorders `a`. */
export function nthLargest(a: Float64Array, n: number): number {
  const k = a.length - n;
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i += 1;
      while ((a[j] as number) > pivot) j -= 1;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k] as number;
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

/** Adds `from`'s scores into `into`, scaled so `from`'s best tool adds `weight`. */
function addScaled(into: ScoreBuffer, from: ScoreBuffer, weight: number): void {
  if (Number.isNaN(weight)) {
    into.ensure(from.scores.length);
    for (let i = 0; i < from.count; i += 1) {
      const slot = from.slots[i] as number;
      into.add(slot, from.scores[slot] as number);
    }
    return;
  }
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

/** Splits a request into its sentences and `then`/`also`-joined parts (at least two words each). */
export function clauses(query: string): string[] {
  return query
    .split(
      /[.!?;\n]+\s|[.!?;\n]+$|\n|,?\s+(?:and then|then|also|additionally|finally|afterwards|after that|as well as)\s+/i,
    )
    .map((c) => c?.trim() ?? '')
    .filter((c) => terms(c).length >= 2);
}
