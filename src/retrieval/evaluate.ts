import { performance } from 'node:perf_hooks';
import type { BenchmarkQuery, RetrievalDataset } from './dataset.js';
import { Ranker } from './ranker.js';
import { DEFAULT_RANKING, PLAIN_BM25, type RankingSettings } from './ranking-settings.js';
import type { RetrievalTool } from './retrieval-tool.js';
import { ToolIndex } from './tool-index.js';

/** Which queries an evaluation reads. */
export type Split = 'dev' | 'heldout' | 'all';

/** How to run an evaluation. */
export interface EvalOptions {
  readonly split: Split;
  /**
   * The cut for recall@K (48, per-turn selection's K, by default). The ranking alone is read: no
   * schema budget, core, sticky or hinted tools, so this is not what a turn offers.
   */
  readonly k: number;
  /** Extra tools merged into the pool (the scale test); names already present are kept once. */
  readonly extraTools?: readonly RetrievalTool[];
  readonly settings?: RankingSettings;
  /** Rank with textbook BM25 (the baseline) instead of the tuned ranking. */
  readonly baseline?: boolean;
  /** Read every n-th query only (quick iterations); 1 reads all. */
  readonly every?: number;
}

/** Evaluation figures; recall, nDCG and C are percentages (0–100). */
export interface EvalReport {
  readonly 'recall@5': number;
  readonly 'recall@10': number;
  readonly [recallAtK: `recall@${number}`]: number;
  readonly 'ndcg@10': number;
  readonly 'c@10': number;
  readonly queries: number;
  readonly tools: number;
  readonly build_ms: number;
  readonly p50_ms: number;
  readonly p95_ms: number;
}

/** Ranks every query of the split against the pool and measures quality and speed. */
export function evaluate(data: RetrievalDataset, opts: EvalOptions): EvalReport {
  const pool = mergePools(data.tools, opts.extraTools ?? []);
  const t0 = performance.now();
  const index = new ToolIndex(opts.baseline ? 'plain' : 'standard');
  index.upsertMany(pool);
  const buildMs = performance.now() - t0;
  const every = Math.max(1, opts.every ?? 1);
  const queries = data.queries.filter(
    (q, i) => (opts.split === 'all' || q.split === opts.split) && i % every === 0,
  );
  const settings = opts.baseline ? PLAIN_BM25 : (opts.settings ?? DEFAULT_RANKING);
  return { ...measure(index, queries, opts.k, settings), build_ms: round(buildMs) };
}

/** Ranks the queries against a built index: quality figures and per-query latency. */
export function measure(
  index: ToolIndex,
  queries: readonly BenchmarkQuery[],
  k: number,
  settings: RankingSettings,
): EvalReport {
  const ranker = new Ranker(index, settings);
  const cut = Math.max(k, 10);
  // Warm the JIT on a few queries so the first timed ones are not compile time.
  for (const q of queries.slice(0, 50)) ranker.rank(q.query, cut);
  const sums = { r5: 0, r10: 0, rk: 0, ndcg: 0, c10: 0 };
  const times: number[] = [];
  for (const q of queries) {
    const start = performance.now();
    const top = ranker.rank(q.query, cut);
    times.push(performance.now() - start);
    const names = top.map((r) => (index.toolAt(r.slot) as RetrievalTool).name);
    const gold = new Set(q.gold);
    const hitsAt = (n: number): number => names.slice(0, n).filter((x) => gold.has(x)).length;
    sums.r5 += hitsAt(5) / gold.size;
    sums.r10 += hitsAt(10) / gold.size;
    sums.rk += hitsAt(k) / gold.size;
    // Completeness as the benchmarks define it: every gold tool in the top 10 (never, past 10 gold tools).
    sums.c10 += hitsAt(10) === gold.size ? 1 : 0;
    sums.ndcg += ndcgAt10(names, gold);
  }
  const n = Math.max(1, queries.length);
  const pct = (v: number): number => round((100 * v) / n);
  times.sort((a, b) => a - b);
  return {
    'recall@5': pct(sums.r5),
    'recall@10': pct(sums.r10),
    [`recall@${k}`]: pct(sums.rk),
    'ndcg@10': pct(sums.ndcg),
    'c@10': pct(sums.c10),
    queries: queries.length,
    tools: index.size,
    build_ms: 0,
    p50_ms: round(quantile(times, 0.5), 3),
    p95_ms: round(quantile(times, 0.95), 3),
  } as EvalReport;
}

/** nDCG@10 with binary relevance; the ideal ranking holds min(|gold|, 10) hits. */
function ndcgAt10(names: readonly string[], gold: ReadonlySet<string>): number {
  let dcg = 0;
  for (let i = 0; i < Math.min(10, names.length); i += 1)
    if (gold.has(names[i] as string)) dcg += 1 / Math.log2(i + 2);
  let ideal = 0;
  for (let i = 0; i < Math.min(10, gold.size); i += 1) ideal += 1 / Math.log2(i + 2);
  return ideal > 0 ? dcg / ideal : 0;
}

function mergePools(own: readonly RetrievalTool[], extra: readonly RetrievalTool[]): RetrievalTool[] {
  const names = new Set(own.map((t) => t.name));
  return [...own, ...extra.filter((t) => !names.has(t.name) && names.add(t.name))];
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

function round(v: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
