import { describe, expect, it } from 'vitest';
import { DeferredTerms } from '../../src/retrieval/deferred-terms.js';
import type { WeightedTerms } from '../../src/retrieval/field-weights.js';
import { Ranker } from '../../src/retrieval/ranker.js';
import { DEFAULT_RANKING } from '../../src/retrieval/ranking-settings.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { ScoreBuffer } from '../../src/retrieval/score-buffer.js';
import { ToolIndex } from '../../src/retrieval/tool-index.js';

const ACTIONS = ['open', 'close', 'merge', 'tag', 'label', 'sync', 'mirror', 'audit'];
const THINGS = ['branch', 'ticket', 'invoice', 'folder', 'printer', 'sensor', 'lease', 'badge', 'quota'];

/**
 * A catalog where most tools share the words "record" and "owner" (a few built-in ones do not, so
 * those words still count a little), and every action and thing is held by a share of the tools.
 */
function sharedWordTools(n: number): RetrievalTool[] {
  const tools: RetrievalTool[] = [];
  for (let i = 0; i < n; i += 1) {
    const action = ACTIONS[i % ACTIONS.length] as string;
    const thing = THINGS[Math.floor(i / ACTIONS.length) % THINGS.length] as string;
    const extra = i % 7 === 0 ? ' Keeps the record history.' : '';
    tools.push({
      name: `${action}_${thing}_${i}`,
      description: `${action} the ${thing} record for its owner, number ${i}.${extra}`,
    });
  }
  tools.push({ name: 'read_file', description: 'Read a file from the disk.' });
  tools.push({ name: 'run_shell', description: 'Run a shell command.' });
  tools.push({ name: 'ask_person', description: 'Ask the person a question.' });
  return tools;
}

const index = new ToolIndex();
index.upsertMany(sharedWordTools(1500));
const fw = { weight: DEFAULT_RANKING.fieldWeight, b: DEFAULT_RANKING.fieldB, k1: DEFAULT_RANKING.k1 };

function termsOf(words: readonly string[], weight = 1): WeightedTerms {
  const out: WeightedTerms = new Map();
  for (const w of words) {
    const id = index.termId(index.terms(w)[0] as string);
    if (id === undefined) throw new Error(`no tool holds "${w}"`);
    out.set(id, weight);
  }
  return out;
}

function scoresOf(buf: ScoreBuffer): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < buf.count; i += 1) {
    const slot = buf.slots[i] as number;
    out.set(slot, buf.scores[slot] as number);
  }
  return out;
}

describe('deferred terms', () => {
  // The second round reaches hundreds of tools (they catch up by the deferred terms' postings) or a
  // handful (by their own term lists).
  it.each([
    ['hundreds of tools', ['history', 'sensor']],
    ['a handful of tools', ['1234', '40']],
  ])(
    'give every tool the same score, to the last bit, as scoring every term everywhere (a second round reaching %s)',
    (_reach, later) => {
      // Two rounds, as a ranking with feedback makes: the common words come first and last.
      const first = termsOf(['record', 'merge', 'owner', 'printer']);
      const second = termsOf(later, 0.3);
      const plain = new ScoreBuffer();
      index.accumulate(first, fw, plain);
      index.accumulate(second, fw, plain);

      const deferred = new DeferredTerms();
      deferred.begin(index.capacity, index.termCount, true);
      const lazy = new ScoreBuffer();
      index.accumulateDeferring(first, fw, lazy, deferred, 1000);
      index.accumulateDeferring(second, fw, lazy, deferred, 1000);
      expect(deferred.ids.length).toBe(2);
      expect(lazy.count).toBeLessThan(plain.count);
      const want = scoresOf(plain);
      // The tools scored so far (reached by "merge", "printer" or "sensor", "sensor" after the first
      // round) already hold their whole score; no other tool can score above the bound.
      for (const [slot, score] of scoresOf(lazy)) {
        expect(deferred.marked(slot)).toBe(true);
        expect(score).toBe(want.get(slot));
      }
      for (const [slot, score] of want)
        if (!deferred.marked(slot)) expect(score).toBeLessThanOrEqual(deferred.bound);
      // A cut is taken as it stands only when its last score is above what an unscored tool could reach.
      expect(deferred.below(deferred.bound)).toBe(false);
      expect(deferred.below(deferred.bound * 1.01)).toBe(true);

      index.complete(fw, lazy, deferred);
      expect(scoresOf(lazy)).toEqual(want);
    },
  );

  it('leave the ranking as it is: a cut ranking is the head of the whole one', () => {
    const ranker = new Ranker(index);
    const queries = [
      'merge the printer record for the owner',
      'record owner',
      'tag a lease for its owner, keeping the record history',
      'audit every quota record',
      'sync the badge',
      'owner of record 12',
      'close the ticket record for number 40',
      // Fewer tools hold the rare word than the cut takes: the cut reaches tools only the common
      // words score, which the deferred terms must then be added to.
      'history record owner',
      'owner record 1234',
    ];
    for (const q of queries) {
      const whole = ranker.rank(q);
      for (const limit of [1, 5, 20, 94, 400]) expect(ranker.rank(q, limit)).toEqual(whole.slice(0, limit));
    }
  });
});
