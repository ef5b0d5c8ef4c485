import type { RetrievalTool } from './retrieval-tool.js';
import type { SelectOptions } from './retriever-options.js';
import { ToolRetriever } from './tool-retriever.js';

/** A turn's selection: the tools it offers with full schemas, and how relevant each tool was found. */
export interface ToolSelection {
  readonly tools: readonly RetrievalTool[];
  /** Relevance by tool name: orders the catalog, and decides what makes room first in a full request. */
  readonly relevance: ReadonlyMap<string, number>;
}

/**
 * How a turn's tools are chosen. Each session's catalog is a `ToolRetriever` the selector makes (it
 * keeps the tools the session called across turns, and answers `tool_search`); the selection, made once
 * per turn, may wait (for an embeddings endpoint, say). `lexicalSelector` is the default.
 */
export interface ToolSelector {
  /** A catalog of one session's tools; `k` is the runtime's tools per turn, when it sets one. */
  catalog(tools: Iterable<RetrievalTool>, k: number | undefined): ToolRetriever;
  /** The turn's selection from `catalog` for the person's request. */
  select(catalog: ToolRetriever, query: string, options: SelectOptions): Promise<ToolSelection>;
}

/** Ranks by words alone (BM25F with WordNet expansion): the runtime's default. */
export const lexicalSelector: ToolSelector = {
  catalog: (tools, k) => new ToolRetriever(tools, k === undefined ? {} : { k }),
  async select(catalog, query, options) {
    const tools = catalog.select(query, options);
    return { tools, relevance: new Map(catalog.lastRelevance) };
  },
};
