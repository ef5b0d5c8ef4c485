import type { RankingSettings } from './ranking-settings.js';
import { isStopWord, termOf, words } from './tokenize.js';
import type { ToolIndex, WeightedTerms } from './tool-index.js';
import { type Relation, WordNet } from './word-net.js';

let wordNet: WordNet | null | undefined;

/** The process-wide WordNet, opened on first use; undefined when the package is not installed. */
export function sharedWordNet(): WordNet | undefined {
  if (wordNet === undefined) wordNet = WordNet.open() ?? null;
  return wordNet ?? undefined;
}

/**
 * Adds to `q` the lexicon relatives (synonyms, derived forms, broader terms, gloss words) of the
 * query's words that some tool holds. A word no tool holds is expanded in full; one that tools
 * already hold only by `presentWordExpansion`, since its own matches already speak for it.
 */
export function expandQuery(index: ToolIndex, query: string, q: WeightedTerms, s: RankingSettings): void {
  const weights: Record<Relation, number> = {
    synonym: s.synonymWeight,
    derived: s.derivedWeight,
    broader: s.broaderWeight,
    instance: s.instanceWeight,
    gloss: s.glossWeight,
  };
  if (!Object.values(weights).some((w) => w > 0)) return;
  const lexicon = sharedWordNet();
  if (!lexicon) return;
  const added = new Map<number, number>();
  for (const w of new Set(words(query))) {
    const own = termOf(w);
    if (own === '' || /\d/.test(w)) continue;
    const present = index.termId(own) !== undefined;
    const factor = present ? s.presentWordExpansion : 1;
    if (factor <= 0 && !(s.instanceWeight > 0)) continue;
    for (const r of lexicon.related(w, s.synonymSenses)) {
      const f = r.relation === 'instance' ? 1 : factor;
      const weight = f * weights[r.relation] * s.senseDecay ** r.sense;
      if (weight <= 0 || isStopWord(r.word)) continue;
      const id = index.termId(termOf(r.word));
      if (id === undefined || q.has(id)) continue;
      if ((added.get(id) ?? 0) < weight) added.set(id, weight);
    }
  }
  for (const [id, w] of added) q.set(id, w);
}
