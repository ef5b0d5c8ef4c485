import { describe, expect, it } from 'vitest';
import type { BenchmarkQuery, RetrievalDataset } from '../../src/retrieval/dataset.js';
import { isOff, leaveOneOut, SIGNALS, verdicts } from '../../src/retrieval/leave-one-out.js';

/** A small dataset: tools named after their topic, one dev and one heldout query per tool. */
function dataset(name: string, topics: readonly string[], phrase: (t: string) => string): RetrievalDataset {
  const tools = topics.map((t) => ({
    name: `${t}_tool`,
    description: `Works with ${t} records`,
    parameters: { type: 'object', properties: { [`${t}_id`]: { type: 'string' } } },
  }));
  const queries: BenchmarkQuery[] = topics.flatMap((t, i) => [
    { id: `${i}d`, query: phrase(t), gold: [`${t}_tool`], split: 'dev' as const },
    { id: `${i}h`, query: phrase(t), gold: [`${t}_tool`], split: 'heldout' as const },
  ]);
  return { name, tools, queries };
}

const sets = [
  dataset('a', ['invoice', 'ticket', 'shipment', 'payroll'], (t) => `open the ${t} please`),
  dataset('b', ['weather', 'stock', 'flight', 'hotel'], (t) => `I need the ${t} now`),
  dataset('c', ['song', 'movie', 'podcast', 'book'], (t) => `find a ${t}`),
];

describe('leave-one-dataset-out', () => {
  const results = leaveOneOut(sets, ['a', 'b', 'c'], 48);

  it('measures each left-out set on its heldout queries, beside the baseline and without each signal', () => {
    expect(results.map((r) => r.dataset)).toEqual(['a', 'b', 'c']);
    for (const r of results) {
      expect(r.ranker.queries).toBe(4);
      expect(r.baseline.queries).toBe(4);
      expect(Object.keys(r.without)).toEqual(SIGNALS.map((s) => s.name));
      expect(r.ranker['recall@48']).toBe(100);
    }
  });

  it('chooses every tuned signal among its levels, and leaves the ones shipped off at off', () => {
    for (const r of results)
      for (const s of SIGNALS) {
        expect(s.levels).toContain(r.chosen[s.name]);
        if (isOff(s)) expect(r.chosen[s.name]).toBe(s.levels[0]);
      }
  });

  it('judges a signal by what turning it off costs on each left-out set', () => {
    const judged = verdicts(results, 48);
    expect(judged.map((v) => v.signal)).toEqual(SIGNALS.map((s) => s.name));
    for (const v of judged) {
      expect(v.ndcg).toHaveLength(3);
      // A signal that adds nothing on average does not stay.
      if (v.ndcg.every((d) => d === 0)) expect(v.keeps).toBe(false);
    }
  });
});
