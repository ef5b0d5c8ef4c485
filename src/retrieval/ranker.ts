import { expandQuery } from './query-expansion.js';
import { DEFAULT_RANKING, type RankingSettings } from './ranking-settings.js';
import { terms } from './tokenize.js';
import { ScoreBuffer, type ToolIndex, type WeightedTerms } from './tool-index.js';
import { FIELDS } from './tool-text.js';

const NF = FIELDS.length;

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
  return out;
}

/**
 * Ranks tools for a request: BM25F over name, description, parameters, group and word pairs; lexicon
 * expansion for words no tool uses; a bonus for tools whose name the request covers; each clause of a
 * multi-part request ranked too; pseudo-relevance feedback for the tail of the list.
 */
export class Ranker {
  private readonly buffer = new ScoreBuffer();

  constructor(
    readonly index: ToolIndex,
    readonly settings: RankingSettings = DEFAULT_RANKING,
    /** Orders two slots whose scores tie (negative: `a` first). */
    private readonly tie: (a: number, b: number) => number = (a, b) => a - b,
  ) {}

  /** The tools whose score is above zero, best first; at most `limit` of them. */
  rank(query: string, limit = Number.POSITIVE_INFINITY): Ranked[] {
    const s = this.settings;
    const q = this.weighted(query);
    let all = this.score(q);
    if (s.clauseWeight > 0) all = this.fuseClauses(query, all);
    if (s.feedbackDocs > 0 && s.feedbackWeight > 0 && all.length > 0) {
      // Feedback finds tools the words missed, but reorders the head badly: the head stays as it is.
      const keep = this.best(all, Math.min(limit, s.feedbackKeep));
      const readFrom = s.feedbackDocs <= keep.length ? keep : this.best(all, s.feedbackDocs);
      for (const [id, w] of this.feedback(readFrom, q)) q.set(id, w);
      const kept = new Set(keep.map((r) => r.slot));
      const rest = this.score(q).filter((r) => !kept.has(r.slot));
      return [...keep, ...this.best(rest, limit - keep.length)];
    }
    return this.best(all, limit);
  }

  /** The `n` best of an unsorted list, sorted (score, then the tie-break). */
  private best(list: Ranked[], n: number): Ranked[] {
    const order = (a: Ranked, b: Ranked): number => b.score - a.score || this.tie(a.slot, b.slot);
    if (n <= 0) return [];
    if (n >= list.length) return list.sort(order);
    const scores = new Float64Array(list.length);
    for (let i = 0; i < list.length; i += 1) scores[i] = (list[i] as Ranked).score;
    scores.sort();
    const threshold = scores[list.length - n] as number;
    return list
      .filter((r) => r.score >= threshold)
      .sort(order)
      .slice(0, n);
  }

  /** The query's own terms plus lexicon expansions. */
  private weighted(text: string): WeightedTerms {
    const q = queryTerms(this.index, text, this.settings);
    expandQuery(this.index, text, q, this.settings);
    return q;
  }

  /** BM25F over the index, times a bonus for tools whose name the query covers (unsorted). */
  private score(q: WeightedTerms): Ranked[] {
    const s = this.settings;
    const buf = this.buffer;
    buf.reset();
    this.index.accumulate(q, { weight: s.fieldWeight, b: s.fieldB, k1: s.k1 }, buf);
    if (s.nameCoverage > 0) {
      for (const slot of buf.touched) {
        const counts = this.index.termsOf(slot);
        if (!counts) continue;
        let all = 0;
        let hit = 0;
        for (let i = 0; i < counts.terms.length; i += 1) {
          if ((counts.tfs[i * NF] ?? 0) === 0) continue;
          const id = counts.terms[i] as number;
          const idf = this.index.idf(id);
          all += idf;
          hit += idf * Math.min(1, q.get(id) ?? 0);
        }
        if (all > 0) buf.scores[slot] = (buf.scores[slot] ?? 0) * (1 + (s.nameCoverage * hit) / all);
      }
    }
    const out: Ranked[] = buf.touched.map((slot) => ({ slot, score: buf.scores[slot] ?? 0 }));
    buf.reset();
    return out;
  }

  /** Mixes in each clause's own ranking, so every request of a multi-part query gets its tools (unsorted). */
  private fuseClauses(query: string, whole: Ranked[]): Ranked[] {
    const parts = clauses(query);
    if (parts.length < 2 || whole.length === 0) return whole;
    const fused = new Map<number, number>();
    const top = maxScore(whole);
    for (const r of whole) fused.set(r.slot, r.score / top);
    for (const part of parts) {
      const ranked = this.score(this.weighted(part));
      const best = maxScore(ranked);
      if (best <= 0) continue;
      for (const r of ranked) {
        fused.set(r.slot, (fused.get(r.slot) ?? 0) + (this.settings.clauseWeight * r.score) / best);
      }
    }
    return [...fused].map(([slot, score]) => ({ slot, score }));
  }

  /** Words the best-ranked tools share, weighted by rank and rarity, that the query does not hold. */
  private feedback(top: readonly Ranked[], q: WeightedTerms): WeightedTerms {
    const s = this.settings;
    const acc = new Map<number, number>();
    const best = top[0]?.score ?? 1;
    for (const r of top.slice(0, s.feedbackDocs)) {
      const counts = this.index.termsOf(r.slot);
      if (!counts) continue;
      const weighted = new Float64Array(counts.terms.length);
      let total = 0;
      for (let j = 0; j < counts.terms.length; j += 1) {
        let c = 0;
        for (let f = 0; f < NF; f += 1) c += (counts.tfs[j * NF + f] ?? 0) * (s.fieldWeight[f] ?? 0);
        weighted[j] = c;
        total += c;
      }
      if (total === 0) continue;
      for (let j = 0; j < counts.terms.length; j += 1) {
        const id = counts.terms[j] as number;
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

function maxScore(list: readonly Ranked[]): number {
  let m = 0;
  for (const r of list) if (r.score > m) m = r.score;
  return m;
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
