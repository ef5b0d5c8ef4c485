import type { CatalogView } from './catalog-view.js';
import type { RetrievalTool } from './retrieval-tool.js';
import type { SelectOptions } from './retriever-options.js';
import { ToolCatalog } from './tool-catalog.js';

/** A turn's selection: the tools it offers with full schemas, and how relevant each tool was found. */
export interface ToolSelection {
  readonly tools: readonly RetrievalTool[];
  /** Relevance by tool name: orders the catalog, and decides what makes room first in a full request. */
  readonly relevance: ReadonlyMap<string, number>;
  /** Which ranking chose them ("words" when left out), for the turn's record and the Tools page. */
  readonly ranking?: string;
}

/**
 * How a turn's tools are chosen. The selector makes the `ToolCatalog` (index) every session seeing the
 * same tools shares; each session reads it through its own `CatalogView` (the tools it may see, the
 * tools it called, its last turn's hints), which the selection is made from once per turn and may wait
 * (for an embeddings endpoint, say). `lexicalSelector` is the default.
 */
export interface ToolSelector {
  /** The catalog of the tools sessions may be offered; `k` is the runtime's tools per turn, when it sets one. */
  catalog(tools: Iterable<RetrievalTool>, k: number | undefined): ToolCatalog;
  /** The turn's selection for the person's request, from the session's view of a catalog this selector made. */
  select(view: CatalogView, query: string, options: SelectOptions): Promise<ToolSelection>;
  /** Which ranking the last turn used (the Tools page shows it); "words" when not given. */
  lastRanking?(): string;
}

/** Ranks by words alone (BM25F with WordNet expansion): the runtime's default. */
export const lexicalSelector: ToolSelector = {
  catalog: (tools, k) => new ToolCatalog(tools, k === undefined ? {} : { k }),
  async select(view, query, options) {
    const tools = view.select(query, options);
    // The view makes a new map for each selection: this one is the turn's to keep.
    return { tools, relevance: view.lastRelevance, ranking: 'words' };
  },
  lastRanking: () => 'words',
};
