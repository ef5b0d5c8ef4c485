import type { BatchRecord, LeafRecord, LeafStatus } from '../../core/session-store.js';
import type { ToolResult } from '../../core/tool.js';
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

/**
 * The one result the parent receives: per leaf its status, its output under the declared format and
 * its errors. Outputs share `budgetChars` so one long answer cannot crowd out the others.
 */
export function batchResult(
  batch: BatchRecord,
  warnings: readonly BatchFinding[],
  budgetChars: number,
): ToolResult {
  const n = batch.leaves.length;
  const head = `Batch ${batch.id}: ${n} lea${n === 1 ? 'f' : 'ves'} (${statusCounts(batch.leaves)}).`;
  const share = Math.max(400, Math.floor((budgetChars * 0.9) / Math.max(1, n)) - 200);
  const titles = batch.leaves.map((l) => l.title);
  const parts = [head, ...warnings.map((w) => findingLine(w, titles))];
  for (const leaf of batch.leaves) parts.push('', ...leafSection(leaf, share));
  return {
    content: parts.join('\n'),
    isError: !batch.leaves.some((l) => l.status === 'done'),
    data: batchReport(batch),
  };
}

function leafSection(leaf: LeafRecord, share: number): string[] {
  const lines = [`## ${leaf.index + 1}. ${leaf.title}: ${STATUS_WORDS[leaf.status]}`];
  if (leaf.output !== undefined) {
    lines.push(
      `Output (declared format: ${contractFromJson(leaf.contract).output_format}):`,
      cut(leaf.output, share),
    );
  }
  if (leaf.errors.length > 0) lines.push('Errors:', ...leaf.errors.map((e) => `- ${e}`));
  return lines;
}

function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[this output was cut to ${limit.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters]`;
}
