import type { RuntimeTool } from '../calls/runtime-tool.js';
import type { Runtime } from '../runtime.js';
import type { SubagentOptions } from './subagent-options.js';
import { subagentRunTool } from './subagent-run-tool.js';

export {
  type BatchFinding,
  type FindingCode,
  MAX_LEAVES,
  MIN_DECLARATION_CHARS,
  ORCHESTRATION_TOOLS,
} from '../batches/batch-finding.js';
export { type BatchReport, batchReport, batchResult, type LeafReport } from '../batches/batch-result.js';
export {
  contractJson,
  type LeafCapability,
  type LeafContract,
  leafPrompt,
} from '../batches/leaf-contract.js';
export { batchRefusal } from './batch-refusal.js';
export { BATCH_ARGUMENTS, compileBatch } from './compile-batch.js';
export type { CompiledBatch, CompiledLeaf, CompileOptions } from './compiled-batch.js';
export { leafGrants } from './leaf-grants.js';
export {
  batchSummary,
  type ResumeBatchOptions,
  type ResumedBatch,
  resumeBatch,
  unfinishedBatches,
} from './resume-batch.js';
export { isBatchActive } from './run-batch.js';
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_LEAF_TIMEOUT_MS,
  type ResolvedSubagentOptions,
  resolveSubagentOptions,
  type SubagentOptions,
} from './subagent-options.js';
export { SUBAGENT_RUN_DEFINITION, SUBAGENT_RUN_FIELDS } from './subagent-run-definition.js';
export { subagentRunTool } from './subagent-run-tool.js';

/** Offers `subagent_run` in every session of `runtime` (from the next turn on); returns the tool. */
export function enableSubagents(runtime: Runtime, options: SubagentOptions = {}): RuntimeTool {
  const tool = subagentRunTool(runtime, options);
  runtime.addRuntimeTool(tool);
  return tool;
}
