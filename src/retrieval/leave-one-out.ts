import type { BenchmarkQuery, RetrievalDataset } from './dataset.js';
import { type EvalReport, measure } from './evaluate.js';
import { DEFAULT_RANKING, PLAIN_BM25, type RankingSettings } from './ranking-settings.js';
import { ToolIndex } from './tool-index.js';

/** One tunable signal of the ranking: the values tried, the first of which turns it off. */
export interface Signal {
  readonly name: string;
  /** Candidate levels; `levels[0]` is "off" (or the plainest form of a setting that cannot be off). */
  readonly levels: readonly number[];
  /** The level the shipped settings hold. */
  readonly current: (s: RankingSettings) => number;
  readonly apply: (s: RankingSettings, level: number) => RankingSettings;
}

const EXPANSION_BASE = {
  synonymWeight: DEFAULT_RANKING.synonymWeight || 0.15,
  derivedWeight: DEFAULT_RANKING.derivedWeight || 0.15,
  broaderWeight: DEFAULT_RANKING.broaderWeight || 0.1,
  instanceWeight: DEFAULT_RANKING.instanceWeight || 0.3,
  glossWeight: DEFAULT_RANKING.glossWeight || 0.1,
};

function withField(s: RankingSettings, field: number, weight: number): RankingSettings {
  const fieldWeight = [...s.fieldWeight];
  fieldWeight[field] = weight;
  return { ...s, fieldWeight };
}

/** The ranking's signals and settings the leave-one-dataset-out table judges, each on its own. */
export const SIGNALS: readonly Signal[] = [
  {
    name: 'name field',
    levels: [0, 1, 1.5, 2],
    current: (s) => s.fieldWeight[0] ?? 0,
    apply: (s, v) => withField(s, 0, v),
  },
  {
    name: 'parameters field',
    levels: [0, 0.5, 1],
    current: (s) => s.fieldWeight[2] ?? 0,
    apply: (s, v) => withField(s, 2, v),
  },
  {
    name: 'word pairs',
    levels: [0, 0.3, 0.6, 1],
    current: (s) => s.pairWeight,
    apply: (s, v) => ({ ...withField(s, 4, v > 0 ? 0.5 : 0), pairWeight: v }),
  },
  {
    name: 'compounds',
    levels: [0, 0.7],
    current: (s) => s.compoundWeight,
    apply: (s, v) => ({ ...s, compoundWeight: v }),
  },
  {
    name: 'value types',
    levels: [0, 0.3, 0.6],
    current: (s) => s.valueTypeWeight,
    apply: (s, v) => ({ ...s, valueTypeWeight: v }),
  },
  {
    name: 'lexicon expansion',
    levels: [0, 0.5, 1, 2],
    current: (s) => s.synonymWeight / EXPANSION_BASE.synonymWeight,
    apply: (s, v) => ({
      ...s,
      synonymWeight: EXPANSION_BASE.synonymWeight * v,
      derivedWeight: EXPANSION_BASE.derivedWeight * v,
      broaderWeight: EXPANSION_BASE.broaderWeight * v,
      instanceWeight: EXPANSION_BASE.instanceWeight * v,
      glossWeight: EXPANSION_BASE.glossWeight * v,
    }),
  },
  {
    name: 'feedback',
    levels: [0, 0.15, 0.3, 0.5],
    current: (s) => s.feedbackWeight,
    apply: (s, v) => ({ ...s, feedbackWeight: v }),
  },
  {
    name: 'name coverage',
    levels: [0, 0.25, 0.5, 1],
    current: (s) => s.nameCoverage,
    apply: (s, v) => ({ ...s, nameCoverage: v }),
  },
  {
    name: 'clauses',
    levels: [0, 0.25, 0.5],
    current: (s) => s.clauseWeight,
    apply: (s, v) => ({ ...s, clauseWeight: v }),
  },
  {
    name: 'k1',
    levels: [1.2, 0.9, 1.5],
    current: (s) => s.k1,
    apply: (s, v) => ({ ...s, k1: v }),
  },
];

/** A signal the shipped settings turn off (it failed this table): left off, not tuned. */
export function isOff(signal: Signal): boolean {
  return signal.current(DEFAULT_RANKING) === signal.levels[0];
}

/** Dev queries read per dataset while tuning (every n-th, so a large set does not outweigh the time). */
export const TUNE_QUERIES = 1000;

/** One left-out dataset's figures: the ranking tuned on the other sets, the baseline, and each signal turned off. */
export interface LeftOutResult {
  readonly dataset: string;
  /** The level chosen for each signal from the other datasets' dev splits. */
  readonly chosen: Readonly<Record<string, number>>;
  readonly ranker: EvalReport;
  readonly baseline: EvalReport;
  /** The tuned ranking with one signal at its off level, by signal name. */
  readonly without: Readonly<Record<string, EvalReport>>;
}

/** Dev nDCG@10 + Recall@K of one signal level, by dataset; computed once, shared by every fold. */
type Grid = Map<string, Map<number, Map<string, number>>>;

interface Prepared {
  readonly name: string;
  readonly index: ToolIndex;
  readonly plain: ToolIndex;
  readonly dev: readonly BenchmarkQuery[];
  readonly heldout: readonly BenchmarkQuery[];
}

function prepare(data: RetrievalDataset, every: number): Prepared {
  const index = new ToolIndex('standard');
  index.upsertMany(data.tools);
  const plain = new ToolIndex('plain');
  plain.upsertMany(data.tools);
  const dev = data.queries.filter((q) => q.split === 'dev');
  const step = Math.max(1, Math.ceil(dev.length / TUNE_QUERIES));
  return {
    name: data.name,
    index,
    plain,
    dev: dev.filter((_, i) => i % step === 0),
    heldout: data.queries.filter((q, i) => q.split === 'heldout' && i % every === 0),
  };
}

/**
 * Leave-one-dataset-out: for each left-out dataset, each signal's level is the one that does best
 * (mean nDCG@10 + Recall@K over the other datasets' dev splits, every other signal as shipped); the
 * ranking with those levels is then measured on the left-out dataset's heldout split beside the
 * baseline, and once more with each signal off, which is how a signal is judged.
 */
export function leaveOneOut(
  datasets: readonly RetrievalDataset[],
  leftOut: readonly string[],
  k: number,
  every = 1,
  onProgress?: (line: string) => void,
): LeftOutResult[] {
  const sets = datasets.map((d) => prepare(d, every));
  const objective = (r: EvalReport): number => r['ndcg@10'] + (r[`recall@${k}`] ?? 0);
  const grid: Grid = new Map();
  for (const signal of SIGNALS) {
    if (isOff(signal)) continue;
    const byLevel = new Map<number, Map<string, number>>();
    for (const level of signal.levels) {
      const settings = signal.apply(DEFAULT_RANKING, level);
      const byData = new Map<string, number>();
      for (const set of sets) byData.set(set.name, objective(measure(set.index, set.dev, k, settings)));
      byLevel.set(level, byData);
    }
    grid.set(signal.name, byLevel);
    onProgress?.(`tuned ${signal.name}`);
  }
  return leftOut.map((name) => {
    const test = sets.find((s) => s.name === name);
    if (!test) throw new Error(`no dataset named ${name}`);
    const train = sets.filter((s) => s !== test).map((s) => s.name);
    let settings = DEFAULT_RANKING;
    const chosen: Record<string, number> = {};
    for (const signal of SIGNALS) {
      if (isOff(signal)) {
        chosen[signal.name] = signal.levels[0] as number;
        continue;
      }
      const byLevel = grid.get(signal.name) as Map<number, Map<string, number>>;
      let best = signal.levels[0] as number;
      let bestScore = Number.NEGATIVE_INFINITY;
      for (const level of signal.levels) {
        const scores = byLevel.get(level) as Map<string, number>;
        const mean = train.reduce((sum, n) => sum + (scores.get(n) ?? 0), 0) / train.length;
        // Ties keep the earlier (plainer) level.
        if (mean > bestScore + 1e-9) {
          best = level;
          bestScore = mean;
        }
      }
      chosen[signal.name] = best;
      settings = signal.apply(settings, best);
    }
    const ranker = measure(test.index, test.heldout, k, settings);
    const baseline = measure(test.plain, test.heldout, k, PLAIN_BM25);
    const without: Record<string, EvalReport> = {};
    for (const signal of SIGNALS)
      without[signal.name] = measure(
        test.index,
        test.heldout,
        k,
        signal.apply(settings, signal.levels[0] as number),
      );
    onProgress?.(`measured ${name}`);
    return { dataset: name, chosen, ranker, baseline, without };
  });
}

/** A signal's verdict: what it adds on each left-out set (points of nDCG@10 and Recall@K) and whether it stays. */
export interface SignalVerdict {
  readonly signal: string;
  readonly ndcg: readonly number[];
  readonly recall: readonly number[];
  readonly keeps: boolean;
}

/** Most points a kept signal may lose on any left-out set. */
export const MAX_LOSS = 0.5;

/**
 * Judges each signal by what turning it off costs on the left-out sets: it stays when it helps on
 * average on both nDCG@10 and Recall@K and loses more than MAX_LOSS points on neither, on no set.
 */
export function verdicts(results: readonly LeftOutResult[], k: number): SignalVerdict[] {
  return SIGNALS.map((signal) => {
    const ndcg = results.map((r) => r.ranker['ndcg@10'] - (r.without[signal.name] as EvalReport)['ndcg@10']);
    const recall = results.map(
      (r) => (r.ranker[`recall@${k}`] ?? 0) - ((r.without[signal.name] as EvalReport)[`recall@${k}`] ?? 0),
    );
    const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const keeps =
      mean(ndcg) > 0 &&
      mean(recall) >= 0 &&
      ndcg.every((d) => d >= -MAX_LOSS) &&
      recall.every((d) => d >= -MAX_LOSS);
    return { signal: signal.name, ndcg, recall, keeps };
  });
}
