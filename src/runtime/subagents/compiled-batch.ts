import type { BatchFinding } from '../batches/batch-finding.js';
import type { LeafContract } from '../batches/leaf-contract.js';

/** What the compiler needs to know besides the arguments. */
export interface CompileOptions {
  /** Agent names the configuration knows; a leaf may name only these. */
  readonly knownAgents: readonly string[];
  /** True when the call comes from inside a leaf (a batch may not start batches). */
  readonly nested?: boolean;
  /** The folder relative paths are read against (the first workspace folder). */
  readonly base: string;
  /** The folder `~` stands for. */
  readonly home?: string;
}

/** One leaf, ready to run. */
export interface CompiledLeaf {
  readonly index: number;
  readonly title: string;
  readonly agent?: string;
  readonly contract: LeafContract;
}

/** What compiling gave: the leaves and every finding; `ok` when no finding is an error. */
export interface CompiledBatch {
  readonly ok: boolean;
  readonly leaves: readonly CompiledLeaf[];
  readonly findings: readonly BatchFinding[];
  /** Titles by leaf index, for messages (undefined where a leaf has none). */
  readonly titles: readonly (string | undefined)[];
}
