export type { CatalogOptions } from './catalog.js';
export { CATALOG_CHARS, CATALOG_LINE_CHARS, catalog, LEFT_OUT_PREFIX } from './catalog.js';
export { CatalogView } from './catalog-view.js';
export { isCore } from './core-tools.js';
export type { DenseQuery, EmbeddingSource } from './dense-fusion.js';
export { type EmbeddingSelectorOptions, embeddingSelector } from './embedding-selector.js';
export type { MetaToolOptions } from './meta-tools.js';
export {
  answerToolSchema,
  answerToolSearch,
  CATALOG_NOTE,
  catalogNote,
  DEFAULT_SEARCH_LIMIT,
  META_TOOLS,
  TOOL_SCHEMA,
  TOOL_SEARCH,
} from './meta-tools.js';
export { Ranker } from './ranker.js';
export type { RankingSettings } from './ranking-settings.js';
export { DEFAULT_RANKING, PLAIN_BM25 } from './ranking-settings.js';
export type { RetrievalTool } from './retrieval-tool.js';
export { groupOf, OTHER_GROUP } from './retrieval-tool.js';
export type { RetrieverOptions, SearchHit, SearchOptions, SelectOptions } from './retriever-options.js';
export { DEFAULT_K } from './retriever-options.js';
export { schemaBudgetChars, schemaSize } from './schema-size.js';
export { fragmentNames, hintedFragments } from './structural-hints.js';
export { ToolCatalog } from './tool-catalog.js';
export { ToolIndex } from './tool-index.js';
export { ToolRetriever } from './tool-retriever.js';
export { lexicalSelector, type ToolSelection, type ToolSelector } from './tool-selector.js';
export type { Ranked } from './top-k.js';
