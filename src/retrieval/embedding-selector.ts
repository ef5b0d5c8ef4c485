import type { EmbeddingSource } from './dense-fusion.js';
import { ToolCatalog } from './tool-catalog.js';
import type { ToolSelector } from './tool-selector.js';

/** How `embeddingSelector` waits for its source. */
export interface EmbeddingSelectorOptions {
  /** How long one call to the source is waited for before its texts rank by words (10 s by default). */
  readonly embedTimeoutMs?: number;
}

/**
 * Ranks by words and by meaning: before each turn's selection the tools not embedded yet and the
 * request are embedded by `embeddings`, and their similarity is fused into the word ranking, so a tool
 * no word of the request matches can still be offered. A source that fails or is slow leaves the
 * ranking by words.
 */
export function embeddingSelector(
  embeddings: EmbeddingSource,
  options: EmbeddingSelectorOptions = {},
): ToolSelector {
  return {
    catalog: (tools, k) =>
      new ToolCatalog(tools, { ...(k === undefined ? {} : { k }), embeddings, ...options }),
    async select(view, query, selectOptions) {
      await view.embedTools();
      const queryVector = await view.embedQuery(query);
      const tools = view.select(query, queryVector ? { ...selectOptions, queryVector } : selectOptions);
      return { tools, relevance: new Map(view.lastRelevance) };
    },
  };
}
