import { capitalisedWords } from './capitalised-words.js';
import type { WeightedTerms } from './field-weights.js';
import type { RankingSettings } from './ranking-settings.js';
import { isStopWord, termOf } from './tokenize.js';
import type { ToolIndex } from './tool-index.js';
import { type Relation, WordNet } from './word-net.js';

let wordNet: WordNet | null | undefined;

/** The process-wide WordNet, opened on first use; undefined when the package is not installed. */
export function sharedWordNet(): WordNet | undefined {
  if (wordNet === undefined) wordNet = WordNet.open() ?? null;
  return wordNet ?? undefined;
}

/** A word's expansion: term ids and their weights (flat pairs). */
type Expansion = readonly number[];

/**
 * Words whose expansion is remembered at most (each a few hundred bytes); the memory starts over past
 * it. One expander serves every session reading a catalog.
 */
const MAX_REMEMBERED = 8192;

/**
 * Adds to a query the lexicon relatives (synonyms, derived forms, broader terms, gloss words) of its
 * words that some tool holds. A word no tool holds is expanded in full; one that tools already hold
 * only by `presentWordExpansion`, since its own matches already speak for it. A capitalised word
 * also brings the category it is an instance of ("France" → country), whether tools hold it or not.
 * Each word's expansion is worked out once and remembered until the index changes.
 */
export class QueryExpander {
  private readonly weights: Record<Relation, number>;
  private readonly remembered = new Map<string, Expansion>();
  private generation = -1;
  private readonly enabled: boolean;

  constructor(
    private readonly index: ToolIndex,
    private readonly s: RankingSettings,
  ) {
    this.weights = {
      synonym: s.synonymWeight,
      derived: s.derivedWeight,
      broader: s.broaderWeight,
      instance: s.instanceWeight,
      gloss: s.glossWeight,
    };
    this.enabled = Object.values(this.weights).some((w) => w > 0);
  }

  /** Adds the expansions of a query's words to `q` (terms `q` holds already are left as they are). */
  expand(query: string, queryWords: readonly string[], q: WeightedTerms): void {
    if (!this.enabled || !sharedWordNet()) return;
    if (this.generation !== this.index.generation) {
      this.remembered.clear();
      this.generation = this.index.generation;
    }
    const names = new Set<string>();
    for (const m of capitalisedWords(query)) names.add(m.toLowerCase());
    const added = new Map<number, number>();
    for (const w of new Set(queryWords)) {
      const named = names.has(w);
      const key = named ? `${w}\u0000` : w;
      let e = this.remembered.get(key);
      if (e === undefined) {
        e = this.expansionOf(w, named);
        if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
        this.remembered.set(key, e);
      }
      for (let i = 0; i < e.length; i += 2) {
        const id = e[i] as number;
        const weight = e[i + 1] as number;
        if (!q.has(id) && (added.get(id) ?? 0) < weight) added.set(id, weight);
      }
    }
    for (const [id, w] of added) q.set(id, w);
  }

  /** The expansion of one word: ids of related terms some tool holds, each with its best weight. */
  private expansionOf(w: string, named: boolean): Expansion {
    const s = this.s;
    const own = termOf(w);
    const lexicon = sharedWordNet();
    if (own === '' || /\d/.test(w) || !lexicon) return [];
    const factor = this.index.termId(own) !== undefined ? s.presentWordExpansion : 1;
    if (factor <= 0 && !named) return [];
    const best = new Map<number, number>();
    for (const r of lexicon.related(w, s.synonymSenses)) {
      const f = r.relation === 'instance' && named ? 1 : factor;
      const weight = f * this.weights[r.relation] * s.senseDecay ** r.sense;
      if (weight <= 0 || isStopWord(r.word)) continue;
      const id = this.index.termId(termOf(r.word));
      if (id === undefined || id === this.index.termId(own)) continue;
      if ((best.get(id) ?? 0) < weight) best.set(id, weight);
    }
    return [...best].flat();
  }
}
