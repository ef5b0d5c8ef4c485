import type { RetrievalTool } from './retrieval-tool.js';

/**
 * The searchable fields of a tool, in the order the index weighs them. `pairs` holds adjacent word
 * pairs of the name and description, so a query phrase ("feature extraction") counts as a phrase.
 */
export const FIELDS = ['name', 'description', 'parameters', 'group', 'pairs'] as const;

/** Position of the pairs field (derived from the others, so `toolText` has no text for it). */
export const PAIRS_FIELD = 4;

/** One tool's text per field. */
export type FieldTexts = readonly [name: string, description: string, parameters: string, group: string];

/** Keywords of a JSON schema that describe structure, not meaning; their string values are not read. */
const STRUCTURAL = new Set([
  'type',
  'format',
  'pattern',
  '$ref',
  '$schema',
  '$id',
  'required',
  'additionalProperties',
  'default',
  'const',
]);

/** Longest parameter text read per tool, so one huge schema cannot swamp the index. */
const MAX_PARAMETER_TEXT = 4000;

/**
 * Splits a tool into the texts the index reads: name, description, parameters, group. `baseline`
 * reads parameters the textbook way (names and descriptions only), for the plain BM25 comparison.
 */
export function toolText(tool: RetrievalTool, baseline = false): FieldTexts {
  const parts: string[] = [];
  if (baseline) collectNamesAndDescriptions(tool.parameters, parts, 0);
  else collectSchemaText(tool.parameters, parts, 0);
  let params = parts.join(' ');
  if (params.length > MAX_PARAMETER_TEXT) params = params.slice(0, MAX_PARAMETER_TEXT);
  // The name keeps an MCP server's part ("mcp/repo-wiki/…"): requests often name the server.
  const group = tool.group ? `${tool.group.key} ${tool.group.purpose}` : splitServerName(tool.name).server;
  return [tool.name, descriptionOf(tool), params, group];
}

/** A tool's description as retrieval reads it: "" when the catalog gave none (undefined or null). */
export function descriptionOf(tool: RetrievalTool): string {
  return tool.description ?? '';
}

/**
 * Splits an MCP-style name (`mcp/<server>/<tool>`, `mcp__<server>__<tool>`) into the server and the
 * tool's own name (the server stands in for the group of a tool that has none).
 */
export function splitServerName(name: string): { server: string; local: string } {
  const m = /^mcp(?:\/([^/]+)\/|__(.+?)__)(.+)$/.exec(name);
  if (!m) return { server: '', local: name };
  return { server: m[1] ?? m[2] ?? '', local: m[3] ?? name };
}

/**
 * Walks a schema (or any JSON a catalog puts there): property names, descriptions, titles, enum
 * values, and the strings of non-schema keys (some catalogs keep free text under `x-` keys).
 */
function collectSchemaText(node: unknown, out: string[], depth: number): void {
  if (depth > 8 || node === null || node === undefined) return;
  if (typeof node === 'string') {
    out.push(node);
    return;
  }
  if (typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectSchemaText(item, out, depth + 1);
    return;
  }
  const record = node as Record<string, unknown>;
  // for…in over parsed JSON: no entry arrays per object (schemas are walked for every tool).
  for (const key in record) {
    if (!Object.hasOwn(record, key) || STRUCTURAL.has(key)) continue;
    const value = record[key];
    if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const props = value as Record<string, unknown>;
      for (const prop in props) {
        if (!Object.hasOwn(props, prop)) continue;
        out.push(prop);
        collectSchemaText(props[prop], out, depth + 1);
      }
      continue;
    }
    collectSchemaText(value, out, depth + 1);
  }
}

/** Property names and descriptions, recursively, plus free text under `x-` keys. */
function collectNamesAndDescriptions(node: unknown, out: string[], depth: number): void {
  if (depth > 8 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectNamesAndDescriptions(item, out, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'description' && typeof value === 'string') out.push(value);
    else if (key.startsWith('x-')) collectSchemaText(value, out, depth + 1);
    else if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [prop, schema] of Object.entries(value as Record<string, unknown>)) {
        out.push(prop);
        collectNamesAndDescriptions(schema, out, depth + 1);
      }
    } else if (typeof value === 'object') collectNamesAndDescriptions(value, out, depth + 1);
  }
}
