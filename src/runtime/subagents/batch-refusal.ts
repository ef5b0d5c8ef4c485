import type { ToolResult } from '../../core/tool.js';
import { findingLine, MIN_DECLARATION_CHARS } from '../batches/batch-finding.js';
import type { CompiledBatch } from './compiled-batch.js';

const SHAPE_HINT =
  'Send "tasks" as a list of objects, each with "task", a short "title" the person will see, "objective", ' +
  `"output_format" and "boundary" (each declaration at least ${MIN_DECLARATION_CHARS} characters); a leaf ` +
  'that changes things adds "capability": "mutating" and "writes" (the paths it may change), and any leaf ' +
  'may add "off_limits" (paths it must keep clear of).';

/** The result a batch that did not compile is refused with: every finding, each with its fix. */
export function batchRefusal(compiled: CompiledBatch): ToolResult {
  const errors = compiled.findings.filter((f) => f.severity === 'error').length;
  const head =
    `Error: subagent_run started nothing: the batch did not compile (${errors} problem${errors === 1 ? '' : 's'}). ` +
    'Every leaf needs an explicit contract.';
  const lines = compiled.findings.map((f) => findingLine(f, compiled.titles));
  return {
    content: [head, ...lines].join('\n'),
    isError: true,
    hints: [SHAPE_HINT],
    data: { findings: compiled.findings.map((f) => ({ ...f })) },
  };
}
