import { RESERVED_TOOL_NAMES } from '../../seam/index.js';
import type { ToolRegistry } from '../../tools/registry/tool-registry.js';
import { ORCHESTRATION_TOOLS } from '../batches/batch-finding.js';

const NEVER = new Set([...ORCHESTRATION_TOOLS, ...RESERVED_TOOL_NAMES]);

/**
 * The tools a leaf is granted: every served tool by its exact name, less the orchestration tools and
 * the runtime's reserved names (so no leaf starts a batch). The meta-tools stay usable: the gates
 * always let them through. The leaf's agent narrows this further.
 */
export function leafGrants(names: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const name of names) if (!NEVER.has(name)) out.add(escapeGlob(name));
  return [...out];
}

/**
 * The names the registry serves now that `allows` lets through (for a batch resumed outside any turn:
 * the parent's agent decides, as it did when the batch started); none once `signal` has aborted.
 */
export async function servedNames(
  registry: ToolRegistry,
  allows: (name: string) => boolean,
  signal?: AbortSignal,
): Promise<string[]> {
  try {
    const served = await registry.serve(signal);
    return served.tools.map((t) => t.name).filter(allows);
  } catch (error) {
    // Stopped: no leaf starts under a stopped signal, so none needs a grant.
    if (signal?.aborted) return [];
    throw error;
  }
}

/** A tool name as a glob that matches only itself. */
function escapeGlob(name: string): string {
  return name.replace(/[*?[]/g, (c) => `[${c}]`);
}
