import { RESERVED_TOOL_NAMES } from '../../seam/index.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolSurface } from '../tool-surface.js';
import { ORCHESTRATION_TOOLS } from './batch-finding.js';

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

/** The names a parent turn's surface knows (offered, or withheld only by the parent's agent). */
export function surfaceNames(surface: ToolSurface): string[] {
  return [...surface.offered.map((t) => t.name), ...surface.withheld];
}

/** The names the registry serves now (for a batch resumed outside any turn). */
export async function servedNames(registry: ToolRegistry, signal?: AbortSignal): Promise<string[]> {
  const served = await registry.serve(signal);
  return served.tools.map((t) => t.name);
}

/** A tool name as a glob that matches only itself. */
function escapeGlob(name: string): string {
  return name.replace(/[*?[]/g, (c) => `[${c}]`);
}
