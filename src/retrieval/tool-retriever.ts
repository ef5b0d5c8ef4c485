import { CatalogView } from './catalog-view.js';
import type { RetrievalTool } from './retrieval-tool.js';
import type { RetrieverOptions } from './retriever-options.js';
import { ToolCatalog } from './tool-catalog.js';

/**
 * Picks the tools a turn offers with full schemas and ranks the catalog for `tool_search`: one
 * session's view over a catalog of its own. A runtime shares one `ToolCatalog` between its sessions
 * instead, each seeing it through a `CatalogView`.
 */
export class ToolRetriever extends CatalogView {
  constructor(tools: Iterable<RetrievalTool> = [], options: RetrieverOptions = {}) {
    super(new ToolCatalog(tools, options));
  }

  /** Adds a tool, or replaces the one with the same name (its sticky mark is kept). */
  upsert(tool: RetrievalTool): void {
    this.catalog.upsert(tool);
  }

  /** Adds or replaces many tools (into an empty catalog in bulk, which is faster). */
  upsertAll(tools: Iterable<RetrievalTool>): void {
    this.catalog.upsertAll(tools);
  }

  /** Removes a tool (a called one is sticky again if it comes back); false when it was not in the catalog. */
  remove(name: string): boolean {
    this.forget(name);
    return this.catalog.remove(name);
  }

  /** Brings the catalog to exactly `tools` (see `ToolCatalog.setTools`). */
  setTools(tools: Iterable<RetrievalTool>): void {
    for (const name of this.catalog.setTools(tools)) this.forget(name);
  }
}
