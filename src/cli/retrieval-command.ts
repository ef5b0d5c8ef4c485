import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { loadDataset } from '../retrieval/dataset.js';
import { type EvalReport, evaluate, type Split } from '../retrieval/evaluate.js';
import { leaveOneOut, verdicts } from '../retrieval/leave-one-out.js';
import type { RetrievalTool } from '../retrieval/retrieval-tool.js';
import type { Command } from './command.js';
import { formatLeaveOut } from './leave-out-table.js';
import { negativeValuesJoined } from './negative-values.js';

const USAGE = `usage: toolseam retrieval eval FILE [--leave-out NAME|all FILE...] [--split dev|heldout|all] [--k N] [--json] [--pool FILE...] [--baseline] [--every N]

Ranks every query of a retrieval dataset (FILE: .json, or .json.gz) against its tool pool and prints
Recall@5/@10/@K, nDCG@10, C@10 (every gold tool in the top 10), the query and tool counts, index
build time and per-query latency (p50/p95), for the dev and the heldout split side by side. Figures
are percentages. Recall@K is the share of gold tools among the ranking's top K: the ranking alone,
without the schema budget and the core, sticky and hinted tools that decide what a turn offers.
  --split     read one split only (dev, heldout or all; default: dev and heldout, each on its own)
  --k         the cut for the Recall@K row (default: 48, the K of per-turn selection)
  --json      print JSON instead of the table: the figures of one split, or {"dev": …, "heldout": …}
  --pool      merge these datasets' tools into the pool (the scale test)
  --baseline  rank with textbook BM25 instead of the tuned ranking
  --every     read every N-th query only (quick checks)
  --leave-out leave-one-dataset-out over every FILE given: for the named dataset (or "all", each in
              turn) each signal is tuned on the other datasets' dev splits, then the ranking is
              measured on the left-out heldout split beside --baseline, and with each signal off`;

/** `toolseam retrieval eval …`: measures tool retrieval on a benchmark dataset. */
export const retrievalCommand: Command = async (argv) => {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'eval')
    throw new InputError(`unknown subcommand "${sub}"; the only one is "eval" (${HELP_HINT}).`);
  const opts = parseEvalArgs(rest);
  if (opts === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (opts.leaveOut !== undefined) return leaveOutCommand(opts, opts.leaveOut);
  const data = loadDataset(opts.file);
  const extra: RetrievalTool[] = [];
  for (const p of opts.pool) extra.push(...loadDataset(p).tools);
  const reports = opts.splits.map((split): [Split, EvalReport] => {
    const report = evaluate(data, {
      split,
      k: opts.k,
      extraTools: extra,
      baseline: opts.baseline,
      every: opts.every,
    });
    if (report.queries === 0)
      throw new InputError(
        `${opts.file} has no queries in the "${split}" split; --split names the one to read.`,
        opts.file,
      );
    return [split, report];
  });
  const [only] = reports;
  const json = reports.length === 1 && only ? only[1] : Object.fromEntries(reports);
  process.stdout.write(opts.json ? `${JSON.stringify(json)}\n` : formatReports(data.name, opts, reports));
  return 0;
};

/** The parsed `eval` arguments. */
interface EvalArgs {
  file: string;
  /** The splits reported, each on its own. */
  splits: Split[];
  k: number;
  json: boolean;
  pool: string[];
  baseline: boolean;
  every: number;
  /** Every dataset named (leave-one-out reads them all). */
  files: string[];
  leaveOut: string | undefined;
}

/** The eval flags, read like every other command's (`--k 5` or `--k=5`). */
const EVAL_OPTIONS = {
  split: { type: 'string' },
  k: { type: 'string' },
  every: { type: 'string' },
  json: { type: 'boolean' },
  baseline: { type: 'boolean' },
  pool: { type: 'string', multiple: true },
  'leave-out': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP_HINT = 'run `toolseam retrieval eval --help` for the options';

/** The parsed `eval` arguments; undefined when --help asked for the usage instead. */
function parseEvalArgs(args: readonly string[]): EvalArgs | undefined {
  const { values, tokens } = parseArgs({
    args: negativeValuesJoined(args, ['k', 'every']),
    options: EVAL_OPTIONS,
    allowPositionals: true,
    strict: true,
    tokens: true,
  });
  if (values.help) return undefined;
  // `--pool A B` names several pool files: a name right after --pool's own belongs to the pool.
  const files: string[] = [];
  const pool = [...(values.pool ?? [])];
  let afterPool = false;
  for (const token of tokens) {
    if (token.kind === 'option') afterPool = token.name === 'pool' && !token.inlineValue;
    else if (token.kind === 'positional') (afterPool ? pool : files).push(token.value);
    else afterPool = false;
  }
  const [file, second] = files;
  if (file === undefined) throw new InputError(`name the dataset FILE to evaluate; ${HELP_HINT}.`);
  const leaveOut = values['leave-out'];
  if (leaveOut !== undefined && files.length < 2)
    throw new InputError(
      `--leave-out needs at least two dataset FILEs (tuned on the others, measured on one).`,
    );
  if (second !== undefined && leaveOut === undefined)
    throw new InputError(
      `one dataset FILE only (got "${file}" and "${second}"); use --pool to merge others.`,
    );
  const split = values.split;
  if (split !== undefined && split !== 'dev' && split !== 'heldout' && split !== 'all')
    throw new InputError(`--split must be dev, heldout or all, not "${split}".`);
  return {
    file,
    splits: split === undefined ? ['dev', 'heldout'] : [split],
    k: atLeastOne('--k', values.k, 48),
    json: values.json === true,
    pool,
    baseline: values.baseline === true,
    every: atLeastOne('--every', values.every, 1),
    files,
    leaveOut,
  };
}

/** `--leave-out NAME|all`: the leave-one-dataset-out table over every FILE given. */
function leaveOutCommand(opts: EvalArgs, leaveOut: string): number {
  const data = opts.files.map(loadDataset);
  const names = data.map((d) => d.name);
  if (leaveOut !== 'all' && !names.includes(leaveOut))
    throw new InputError(
      `--leave-out names a dataset given (${names.join(', ')}) or "all", not "${leaveOut}".`,
    );
  const results = leaveOneOut(data, leaveOut === 'all' ? names : [leaveOut], opts.k, opts.every, (line) =>
    process.stderr.write(`${line}\n`),
  );
  process.stdout.write(
    opts.json
      ? `${JSON.stringify({ results, verdicts: verdicts(results, opts.k) })}\n`
      : formatLeaveOut(results, opts.k),
  );
  return 0;
}

function atLeastOne(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new InputError(`${flag} must be a whole number of at least 1, not "${text}".`);
  return n;
}

function formatReports(name: string, opts: EvalArgs, reports: readonly [Split, EvalReport][]): string {
  const pct = (v: number | undefined): string => `${(v ?? 0).toFixed(1)}%`;
  const rows: [string, (r: EvalReport) => string][] = [
    ['Recall@5', (r) => pct(r['recall@5'])],
    ['Recall@10', (r) => pct(r['recall@10'])],
    [`Recall@${opts.k}`, (r) => pct(r[`recall@${opts.k}`])],
    ['nDCG@10', (r) => pct(r['ndcg@10'])],
    ['C@10', (r) => pct(r['c@10'])],
    ['queries', (r) => String(r.queries)],
    ['tools', (r) => String(r.tools)],
    ['build', (r) => `${r.build_ms} ms`],
    ['latency p50', (r) => `${r.p50_ms} ms`],
    ['latency p95', (r) => `${r.p95_ms} ms`],
  ];
  const notes = [
    ...(opts.baseline ? ['plain BM25'] : []),
    ...(opts.pool.length > 0 ? [`pool of ${reports[0]?.[1].tools ?? 0} tools`] : []),
  ];
  const title = notes.length > 0 ? `${name} (${notes.join(', ')})` : name;
  const cell = (text: string): string => text.padStart(11);
  const head = `  ${''.padEnd(12)}${reports.map(([split]) => cell(split)).join('')}`;
  const lines = rows.map(
    ([label, value]) => `  ${label.padEnd(12)}${reports.map(([, r]) => cell(value(r))).join('')}`,
  );
  return `${title}\n${head}\n${lines.join('\n')}\n`;
}
