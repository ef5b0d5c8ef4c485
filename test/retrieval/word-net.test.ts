import { describe, expect, it } from 'vitest';
import { WordNet } from '../../src/retrieval/word-net.js';

describe('WordNet', () => {
  const wn = WordNet.open();

  it('opens the installed lexicon', () => {
    expect(wn).toBeDefined();
  });

  it('finds synonyms, derived and broader words, from inflected forms too', () => {
    const related = (w: string) => (wn as WordNet).related(w, 2);
    expect(related('forecasts').map((r) => r.word)).toEqual(
      expect.arrayContaining(['prognosis', 'prediction']),
    );
    expect(related('purchased').some((r) => r.word === 'buy' && r.relation === 'synonym')).toBe(true);
    expect(related('translation').some((r) => r.word === 'translate' && r.relation === 'derived')).toBe(true);
    expect(related('car').some((r) => r.relation === 'broader' && r.word === 'vehicle')).toBe(true);
    expect(related('qwzxv')).toEqual([]);
  });
});
