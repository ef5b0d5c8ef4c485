/** Most leaves one `subagent_run` call may start. */
export const MAX_LEAVES = 24;

/** Fewest characters a declaration (objective, output format, boundary) may have. */
export const MIN_DECLARATION_CHARS = 12;

/** Longest leaf title: it is a name the person sees on one line. */
export const MAX_TITLE_CHARS = 80;

/** From this many leaves on, every leaf needs a full contract (one leaf alone may be plain text). */
export const CONTRACT_THRESHOLD = 2;

/** Tools a leaf is never granted, whatever its agent allows: they start or schedule more work. */
export const ORCHESTRATION_TOOLS: readonly string[] = Object.freeze([
  'subagent_run',
  'workflow_start',
  'workflow_author',
  'workflow_plan',
  'workflow_fork',
  'workflow_run_from',
  'schedule_create',
]);

/** Why the compiler objects to a batch (or, for `multi_writer`, only warns). */
export type FindingCode =
  | 'no_task'
  | 'task_and_tasks'
  | 'unknown_argument'
  | 'argument_type'
  | 'agents_mismatch'
  | 'too_many_leaves'
  | 'leaf_contract_missing'
  | 'leaf_contract_thin'
  | 'leaf_title_long'
  | 'leaf_declaration_type'
  | 'leaf_declaration_unknown'
  | 'research_leaf_writes'
  | 'write_off_limits'
  | 'unknown_agent'
  | 'nested_batch'
  | 'multi_writer';

/** One thing the compiler found: what, where, and how to fix it. */
export interface BatchFinding {
  readonly code: FindingCode;
  /** Errors refuse the batch; warnings are reported with its result. */
  readonly severity: 'error' | 'warning';
  /** The leaf it is about (0-based), when it is about one. */
  readonly leaf?: number;
  /** One plain sentence saying what is wrong. */
  readonly message: string;
  /** One sentence saying how to fix it. */
  readonly fix: string;
}

/** A finding that refuses the batch. */
export function error(code: FindingCode, message: string, fix: string, leaf?: number): BatchFinding {
  return { code, severity: 'error', message, fix, ...(leaf === undefined ? {} : { leaf }) };
}

/** A finding reported with the batch's result. */
export function warning(code: FindingCode, message: string, fix: string, leaf?: number): BatchFinding {
  return { code, severity: 'warning', message, fix, ...(leaf === undefined ? {} : { leaf }) };
}

/** One line per finding, as the model reads it. */
export function findingLine(finding: BatchFinding, titles: readonly (string | undefined)[]): string {
  const title = finding.leaf === undefined ? undefined : titles[finding.leaf];
  const where = finding.leaf === undefined ? '' : `leaf ${finding.leaf + 1}${title ? ` ("${title}")` : ''}: `;
  const mark = finding.severity === 'warning' ? ' (warning)' : '';
  return `- [${finding.code}]${mark} ${where}${finding.message} Fix: ${finding.fix}`;
}
