import type { EvalReport } from '../retrieval/evaluate.js';
import { isOff, type LeftOutResult, SIGNALS, verdicts } from '../retrieval/leave-one-out.js';

/** The leave-one-dataset-out table: each left-out set's figures beside the baseline's, then each signal's verdict. */
export function formatLeaveOut(results: readonly LeftOutResult[], k: number): string {
  const pct = (v: number | undefined): string => (v ?? 0).toFixed(1);
  const signed = (v: number, digits = 1): string => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;
  const metrics: [string, (r: EvalReport) => number][] = [
    ['nDCG@10', (r) => r['ndcg@10']],
    [`Recall@${k}`, (r) => r[`recall@${k}`] ?? 0],
    ['Recall@5', (r) => r['recall@5']],
    ['Recall@10', (r) => r['recall@10']],
    ['C@10', (r) => r['c@10']],
  ];
  const lines: string[] = [
    "Left-out dataset (heldout split), ranking tuned on the other datasets' dev splits, vs --baseline (plain BM25)",
    `  ${'left out'.padEnd(12)}${metrics.map(([m]) => `${m.padStart(10)}${'base'.padStart(7)}${'Δ'.padStart(7)}`).join('')}${'queries'.padStart(9)}`,
  ];
  const row = (label: string, rank: number[], base: number[], queries: string): string =>
    `  ${label.padEnd(12)}${rank.map((v, i) => `${pct(v).padStart(10)}${pct(base[i]).padStart(7)}${signed(v - (base[i] ?? 0)).padStart(7)}`).join('')}${queries.padStart(9)}`;
  for (const r of results)
    lines.push(
      row(
        r.dataset,
        metrics.map(([, f]) => f(r.ranker)),
        metrics.map(([, f]) => f(r.baseline)),
        String(r.ranker.queries),
      ),
    );
  if (results.length > 1) {
    const mean = (f: (r: LeftOutResult) => number): number =>
      results.reduce((s, r) => s + f(r), 0) / results.length;
    lines.push(
      row(
        'mean',
        metrics.map(([, f]) => mean((r) => f(r.ranker))),
        metrics.map(([, f]) => mean((r) => f(r.baseline))),
        '',
      ),
    );
  }
  lines.push('', 'Levels chosen on the other datasets (first level = off):');
  for (const s of SIGNALS)
    lines.push(
      `  ${s.name.padEnd(18)} levels ${s.levels.join('/').padEnd(14)} chosen ${results.map((r) => `${r.dataset}:${r.chosen[s.name]}`).join('  ')}`,
    );
  lines.push(
    '',
    `What each signal adds on the left-out sets (points, tuned ranking minus the same with the signal off):`,
  );
  const mean = (xs: readonly number[]): string =>
    `mean ${signed(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), 2).padEnd(6)}`;
  for (const v of verdicts(results, k)) {
    const off = SIGNALS.find((s) => s.name === v.signal);
    const fixed = off?.levels[0] === 0 ? 'off' : `at ${off?.levels[0]}`;
    const verdict = off && isOff(off) ? `${fixed} (failed before)` : v.keeps ? 'stays' : 'fails';
    lines.push(
      `  ${v.signal.padEnd(18)} nDCG@10 ${v.ndcg
        .map((d) => signed(d))
        .join(' ')
        .padEnd(20)} ${mean(v.ndcg)}  Recall@${k} ${v.recall
        .map((d) => signed(d))
        .join(' ')
        .padEnd(20)} ${mean(v.recall)}  ${verdict}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
