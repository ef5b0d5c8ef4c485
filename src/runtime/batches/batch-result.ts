import type { BatchRecord, LeafRecord, LeafStatus } from '../../core/session-store.js';
import { headOf } from '../../core/text-cut.js';
import type { ToolResult } from '../../core/tool.js';
import { leafResultId } from '../context/leaf-result-id.js';
import { type BatchFinding, findingLine } from './batch-finding.js';
import { contractFromJson } from './leaf-contract.js';

/** One leaf as the parent receives it. */
export interface LeafReport {
  readonly index: number;
  readonly title: string;
  readonly status: LeafStatus;
  /** The leaf's final answer (done leaves). */
  readonly output?: string;
  /** The format its contract declared for the output. */
  readonly outputFormat: string;
  readonly errors: readonly string[];
  readonly childSessionId?: string;
}

/** What a batch gave, for hosts: its id, status and every leaf. */
export interface BatchReport {
  readonly batchId: string;
  readonly status: BatchRecord['status'];
  readonly leaves: readonly LeafReport[];
}

const STATUS_WORDS: Record<LeafStatus, string> = {
  queued: 'not started',
  running: 'unfinished',
  done: 'done',
  failed: 'failed',
  timed_out: 'timed out',
};

/** The batch as hosts read it. */
export function batchReport(batch: BatchRecord): BatchReport {
  return {
    batchId: batch.id,
    status: batch.status,
    leaves: batch.leaves.map((leaf) => ({
      index: leaf.index,
      title: leaf.title,
      status: leaf.status,
      ...(leaf.output !== undefined ? { output: leaf.output } : {}),
      outputFormat: contractFromJson(leaf.contract).output_format,
      errors: leaf.errors,
      ...(leaf.childSessionId !== undefined ? { childSessionId: leaf.childSessionId } : {}),
    })),
  };
}

/** One line counting the leaves by status, e.g. "2 done, 1 timed out". */
export function statusCounts(leaves: readonly LeafRecord[]): string {
  const counts = new Map<LeafStatus, number>();
  for (const leaf of leaves) counts.set(leaf.status, (counts.get(leaf.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${STATUS_WORDS[status]}`).join(', ');
}

/** How much of a leaf's frame is shown: its declared format, each error, and how many errors. */
interface Detail {
  readonly format: number;
  readonly errorChars: number;
  readonly errors: number;
}

/**
 * Frames from the fullest to the barest, tried in turn until the outputs have room: the format line
 * goes first, then the errors are shortened and, past that, counted (the first, which says why the
 * leaf ended, is always shown), so many failed leaves never push the last ones past the limit.
 */
const DETAILS: readonly Detail[] = [
  { format: 200, errorChars: 300, errors: Number.POSITIVE_INFINITY },
  { format: 40, errorChars: 300, errors: Number.POSITIVE_INFINITY },
  { format: 0, errorChars: 300, errors: Number.POSITIVE_INFINITY },
  { format: 0, errorChars: 120, errors: Number.POSITIVE_INFINITY },
  { format: 0, errorChars: 120, errors: 2 },
  { format: 0, errorChars: 80, errors: 1 },
];
/** The least room per output worth keeping the longer format lines for. */
const MIN_OUTPUT_ROOM = 120;
/** Room kept for the note saying an output was cut. */
const CUT_NOTE = 170;
/** The most of the result the batch's warnings may take, so they never crowd out the leaves. */
const WARNING_SHARE = 0.25;
/** Longest one warning line may be (a path may be long). */
const WARNING_CHARS = 400;

/**
 * The one result the parent receives: per leaf its status, its output under the declared format and
 * its errors. Every leaf's heading and errors are shown; the outputs share what is left of
 * `budgetChars`, so one long answer cannot crowd out the others and no leaf falls off the end.
 */
export function batchResult(
  batch: BatchRecord,
  warnings: readonly BatchFinding[],
  budgetChars: number,
): ToolResult {
  const n = batch.leaves.length;
  const head = `Batch ${batch.id}: ${n} lea${n === 1 ? 'f' : 'ves'} (${statusCounts(batch.leaves)}).`;
  const titles = batch.leaves.map((l) => l.title);
  const parts = [head, ...warningLines(warnings, titles, Math.floor(budgetChars * WARNING_SHARE))];
  const outputs = batch.leaves.filter((l) => l.output !== undefined).length;
  let frames: LeafFrame[] = [];
  let room = 0;
  for (const detail of DETAILS) {
    frames = batch.leaves.map((leaf) => leafFrame(leaf, detail));
    const fixed = [...parts, ...frames.flatMap((f) => ['', ...f.before, ...f.after])].join('\n').length;
    // One newline per output line, and the note of a cut output.
    room = budgetChars - fixed - outputs * (CUT_NOTE + 1);
    if (room >= outputs * MIN_OUTPUT_ROOM) break;
  }
  const shares = outputShares(batch.leaves, room);
  batch.leaves.forEach((leaf, i) => {
    const frame = frames[i] as LeafFrame;
    const output =
      leaf.output === undefined ? [] : [cut(leaf.output, shares.get(leaf) ?? 0, leafResultId(leaf))];
    parts.push('', ...frame.before, ...output, ...frame.after);
  });
  return {
    content: parts.join('\n'),
    isError: !batch.leaves.some((l) => l.status === 'done'),
    data: batchReport(batch),
  };
}

/**
 * The warnings' lines within `maxChars` (a newline each): every line shortened, each leaf's first
 * warning kept before any leaf's second, shown in their order; a last line counts the ones left out.
 */
function warningLines(
  warnings: readonly BatchFinding[],
  titles: readonly string[],
  maxChars: number,
): string[] {
  const lines = warnings.map((w) => shortened(findingLine(w, titles), WARNING_CHARS));
  const before = new Map<number | undefined, number>();
  const rank = warnings.map((w) => {
    const n = before.get(w.leaf) ?? 0;
    before.set(w.leaf, n + 1);
    return n;
  });
  const order = lines.map((_, i) => i).sort((a, b) => (rank[a] as number) - (rank[b] as number) || a - b);
  const codes = [...new Set(warnings.map((w) => w.code))].join(', ');
  const counted = (n: number): string =>
    `- and ${n} more warning${n === 1 ? '' : 's'} (${codes}), not shown for room`;
  const kept = new Set<number>();
  let used = 0;
  for (const i of order) {
    const line = lines[i] as string;
    const left = lines.length - kept.size - 1;
    const note = left > 0 ? counted(left).length + 1 : 0;
    if (used + line.length + 1 + note > maxChars) break;
    kept.add(i);
    used += line.length + 1;
  }
  const shown = lines.filter((_, i) => kept.has(i));
  return kept.size < lines.length ? [...shown, counted(lines.length - kept.size)] : shown;
}

/**
 * How much of its output each leaf shows, out of `room`: shorter outputs are shown whole and what they
 * leave goes to the longer ones, which share it evenly.
 */
function outputShares(leaves: readonly LeafRecord[], room: number): Map<LeafRecord, number> {
  const withOutput = leaves.filter((l) => l.output !== undefined);
  withOutput.sort((a, b) => (a.output as string).length - (b.output as string).length);
  const shares = new Map<LeafRecord, number>();
  let left = Math.max(0, room);
  withOutput.forEach((leaf, i) => {
    const share = Math.min((leaf.output as string).length, Math.floor(left / (withOutput.length - i)));
    shares.set(leaf, share);
    left -= share;
  });
  return shares;
}

/** A leaf's section around its output: heading (and the format line), then its errors. */
interface LeafFrame {
  readonly before: string[];
  readonly after: string[];
}

function leafFrame(leaf: LeafRecord, detail: Detail): LeafFrame {
  const before = [`## ${leaf.index + 1}. ${leaf.title}: ${STATUS_WORDS[leaf.status]}`];
  if (leaf.output !== undefined) {
    const format = shortened(contractFromJson(leaf.contract).output_format, detail.format);
    before.push(detail.format === 0 ? 'Output:' : `Output (declared format: ${format}):`);
  }
  if (leaf.errors.length === 0) return { before, after: [] };
  const shown = leaf.errors.slice(0, detail.errors).map((e) => `- ${shortened(e, detail.errorChars)}`);
  const hidden = leaf.errors.length - shown.length;
  if (hidden > 0) shown.push(`- and ${hidden} more, not shown for room`);
  return { before, after: ['Errors:', ...shown] };
}

function shortened(text: string, limit: number): string {
  return text.length <= limit ? text : `${headOf(text, limit - 1)}…`;
}

function cut(text: string, limit: number, id: string): string {
  if (text.length <= limit) return text;
  // the leaf's whole output stays in the store: the note says how to read it
  const rest = `call tool_result_read with id "${id}" to read it`;
  if (limit === 0)
    return `[not shown: ${text.length.toLocaleString('en-US')} characters, past the result's limit; ${rest}]`;
  return `${headOf(text, limit)}\n[this output was cut to ${limit.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters; ${rest}]`;
}
