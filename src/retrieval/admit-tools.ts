import type { RetrievalTool } from './retrieval-tool.js';
import { schemaSize } from './schema-size.js';

/** The tools `admitTools` chooses from, by group, each group in the order it is admitted. */
export interface Candidates {
  /** Always admitted; their schemas count against the budget all the same. */
  readonly core: readonly RetrievalTool[];
  /** Used earlier in the session or hinted by the request: admitted ahead of the ranking when they fit. */
  readonly preferred: readonly RetrievalTool[];
  /** The ranking, best first: admitted while fewer than `k` tools are chosen. */
  readonly ranked: readonly RetrievalTool[];
}

/**
 * The names of the tools offered with full schemas: every core tool, then each preferred tool that
 * fits, then ranked tools until `k` are chosen. With a `budget` (characters of schema), a tool that
 * would overrun it is skipped and the next one tried.
 */
export function admitTools(candidates: Candidates, k: number, budget: number | undefined): Set<string> {
  const chosen = new Set<string>();
  let used = 0;
  const fits = (t: RetrievalTool): boolean => budget === undefined || used + schemaSize(t) <= budget;
  const admit = (t: RetrievalTool): void => {
    chosen.add(t.name);
    if (budget !== undefined) used += schemaSize(t);
  };
  for (const t of candidates.core) admit(t);
  for (const t of candidates.preferred) if (fits(t)) admit(t);
  let room = Math.max(0, k - chosen.size);
  for (const t of candidates.ranked) {
    if (room <= 0) break;
    if (chosen.has(t.name) || !fits(t)) continue;
    admit(t);
    room -= 1;
  }
  return chosen;
}
