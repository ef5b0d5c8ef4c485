import { homedir } from 'node:os';
import { InputError } from '../../core/errors.js';
import type { Runtime } from '../runtime.js';
import type { CompileOptions } from './compiled-batch.js';
import type { PathBase } from './leaf-paths.js';

/** How subagent batches run. */
export interface SubagentOptions {
  /** Leaves run at once, across every batch of the runtime (default 4). */
  readonly concurrency?: number;
  /**
   * How long one leaf may run before it is stopped as timed out, in ms (default 15 minutes); waits for a
   * person's answer to one of its calls do not count (the approval timeout bounds those).
   */
  readonly leafTimeoutMs?: number;
  /** Agent names a leaf may name (default: the runtime's configured agents). */
  readonly agents?: readonly string[];
}

/** The options with every default applied. */
export interface ResolvedSubagentOptions {
  readonly concurrency: number;
  readonly leafTimeoutMs: number;
  readonly agents: readonly string[];
}

/** Default number of leaves run at once. */
export const DEFAULT_CONCURRENCY = 4;
/** Default time limit of one leaf: 15 minutes. */
export const DEFAULT_LEAF_TIMEOUT_MS = 15 * 60_000;

/** Applies the defaults; a limit that is not a positive whole number is refused by name. */
export function resolveSubagentOptions(
  runtime: Runtime,
  options: SubagentOptions = {},
): ResolvedSubagentOptions {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const leafTimeoutMs = options.leafTimeoutMs ?? DEFAULT_LEAF_TIMEOUT_MS;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InputError(
      `The subagent concurrency must be a whole number of at least 1, not ${concurrency}.`,
    );
  }
  if (!Number.isFinite(leafTimeoutMs) || leafTimeoutMs <= 0) {
    throw new InputError(
      `The leaf time limit must be a positive number of milliseconds, not ${leafTimeoutMs}.`,
    );
  }
  const agents = options.agents ?? Object.keys(runtime.options.agents ?? {});
  return { concurrency, leafTimeoutMs, agents };
}

/** What the compiler needs from this runtime: its agents, and what declared paths are read against. */
export function compileOptionsFor(
  runtime: Runtime,
  options: ResolvedSubagentOptions,
  nested: boolean,
): CompileOptions {
  return { knownAgents: options.agents, nested, ...pathBase(runtime) };
}

/** What this runtime reads a leaf's declared paths against: its first workspace folder, and `~`. */
export function pathBase(runtime: Runtime): PathBase {
  return { base: runtime.options.workspace?.[0] ?? process.cwd(), home: homedir() };
}

/** A time limit in words: seconds below a minute, minutes above. */
export function durationWords(ms: number): string {
  if (ms < 60_000) {
    const s = Math.round(ms / 100) / 10;
    return `${s} second${s === 1 ? '' : 's'}`;
  }
  const m = Math.round(ms / 6_000) / 10;
  return `${m} minute${m === 1 ? '' : 's'}`;
}
