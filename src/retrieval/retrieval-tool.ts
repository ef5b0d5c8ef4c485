import type { ToolGroup } from '../core/tool.js';

/**
 * What retrieval needs to know about a tool. A `ToolDefinition` satisfies it as is; a benchmark or a
 * host can build one from any catalog.
 */
export interface RetrievalTool {
  readonly name: string;
  readonly description: string;
  /** The declared input schema (or any JSON describing the inputs); `undefined`/`null` for none. */
  readonly parameters?: unknown;
  /** Catalog group; a tool without one is listed under `other`. */
  readonly group?: ToolGroup;
  /** Always offered with its full schema. */
  readonly core?: boolean;
}

/** The group a tool is listed under in the catalog. */
export function groupOf(tool: RetrievalTool): ToolGroup {
  return tool.group ?? OTHER_GROUP;
}

/** Where a tool with no declared group goes. */
export const OTHER_GROUP: ToolGroup = { key: 'other', own: false, purpose: '' };

/** True when the tool belongs to one of the platform's own groups. */
export function isOwn(tool: RetrievalTool): boolean {
  return tool.group?.own === true;
}

/** True when two tools would be indexed alike (same name, description, core mark, group and inputs). */
export function sameTool(a: RetrievalTool, b: RetrievalTool): boolean {
  return (
    a.name === b.name &&
    a.description === b.description &&
    a.core === b.core &&
    JSON.stringify(a.group ?? null) === JSON.stringify(b.group ?? null) &&
    JSON.stringify(a.parameters ?? null) === JSON.stringify(b.parameters ?? null)
  );
}

/** Orders tools platform first, then by name. */
export function platformFirst(a: RetrievalTool, b: RetrievalTool): number {
  return Number(isOwn(b)) - Number(isOwn(a)) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
