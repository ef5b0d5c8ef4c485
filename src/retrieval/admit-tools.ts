import type { RetrievalTool } from './retrieval-tool.js';
import { schemaSize } from './schema-size.js';

/**
 * Most tools one request offers with full schemas, core tools aside: OpenAI refuses a request with
 * more than 128 tools, and the runtime's own tools (tool_search, tool_schema, …) travel beside these.
 */
export const MAX_OFFERED_TOOLS = 100;

/** The tools `admitTools` chooses from, by group, each group in the order it is admitted. */
export interface Candidates {
  /** Always admitted; their schemas count against the budget all the same. */
  readonly core: readonly RetrievalTool[];
  /** Called earlier in the session: admitted when they fit, beyond `k` (up to MAX_OFFERED_TOOLS). */
  readonly sticky: readonly RetrievalTool[];
  /** Named by the request's hints: admitted when they fit, while fewer than `k` tools are chosen (read once). */
  readonly hinted: Iterable<RetrievalTool>;
  /** The ranking, best first: admitted while fewer than `k` tools are chosen. */
  readonly ranked: readonly RetrievalTool[];
  /** Offered last time: they fill what room the ranking leaves (a request with no telling words). */
  readonly fallback?: readonly RetrievalTool[];
}

/**
 * The names of the tools offered with full schemas: every core tool, then each sticky tool that
 * fits, then hinted, ranked and fallback tools until `k` are chosen. With a `budget` (characters of
 * schema), a tool that would overrun it is skipped and the next one tried. Never more than
 * MAX_OFFERED_TOOLS besides the core.
 */
export function admitTools(candidates: Candidates, k: number, budget: number | undefined): Set<string> {
  const chosen = new Set<string>();
  let used = 0;
  let others = 0;
  const fits = (t: RetrievalTool): boolean =>
    !chosen.has(t.name) && (budget === undefined || used + schemaSize(t) <= budget);
  const admit = (t: RetrievalTool): void => {
    chosen.add(t.name);
    if (budget !== undefined) used += schemaSize(t);
  };
  for (const t of candidates.core) admit(t);
  for (const t of candidates.sticky) {
    if (others === MAX_OFFERED_TOOLS) break;
    if (fits(t)) {
      admit(t);
      others += 1;
    }
  }
  const cap = Math.min(k, chosen.size - others + MAX_OFFERED_TOOLS);
  for (const group of [candidates.hinted, candidates.ranked, candidates.fallback ?? []]) {
    for (const t of group) {
      if (chosen.size >= cap) return chosen;
      if (fits(t)) admit(t);
    }
  }
  return chosen;
}
