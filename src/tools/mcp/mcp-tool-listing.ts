import { isPlainObject } from '../../core/json.js';
import type { RiskLevel, ToolDefinition, ToolGroup } from '../../core/tool.js';

/** One tool of a server's listing, with what toolseam needs to call it. */
export interface McpListedTool {
  readonly definition: ToolDefinition;
  /** The name the server knows it by (the part after `mcp/<server>/`). */
  readonly serverName: string;
}

/** A server's listing read defensively: the usable tools and what was wrong with the rest. */
export interface McpToolListing {
  readonly tools: readonly McpListedTool[];
  /** One sentence per defect the listing had (a tool left out, a field ignored). */
  readonly problems: readonly string[];
}

/** At most this many tools are taken from one server; a listing beyond it is cut. */
export const MAX_TOOLS_PER_SERVER = 2_000;

/** Where a server's tools are tagged: its provider, app and catalog group. */
export interface McpListingOrigin {
  readonly server: string;
  readonly provider: string;
  readonly app: string;
  readonly group: ToolGroup;
}

/** The real name toolseam gives a server's tool. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp/${server}/${tool}`;
}

/**
 * Turns the `tools` array of a `tools/list` answer into tool definitions. A malformed entry costs only
 * itself (recorded as a problem); schemas are passed on as declared, for the seam to judge.
 */
export function readToolListing(raw: readonly unknown[], origin: McpListingOrigin): McpToolListing {
  const tools: McpListedTool[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const server = `MCP server "${origin.server}"`;
  raw.forEach((item, index) => {
    if (tools.length >= MAX_TOOLS_PER_SERVER) return;
    if (!isPlainObject(item)) {
      problems.push(
        `${server} listed entry ${index} as ${kindOf(item)} instead of a tool object; it was left out.`,
      );
      return;
    }
    const name = item.name;
    if (typeof name !== 'string' || name.trim() === '') {
      problems.push(
        `${server} listed entry ${index} without a name; it was left out (the server's author has to name it).`,
      );
      return;
    }
    if (seen.has(name)) {
      problems.push(`${server} listed the tool "${name}" more than once; only the first is used.`);
      return;
    }
    seen.add(name);
    if (!('inputSchema' in item)) {
      problems.push(`${server} declared no inputSchema for "${name}"; it is offered as taking no arguments.`);
    }
    tools.push({ serverName: name, definition: toDefinition(name, item, origin) });
  });
  if (raw.length > MAX_TOOLS_PER_SERVER && tools.length >= MAX_TOOLS_PER_SERVER) {
    problems.push(`${server} listed ${raw.length} tools; only the first ${MAX_TOOLS_PER_SERVER} are used.`);
  }
  return { tools, problems };
}

function toDefinition(name: string, item: Record<string, unknown>, origin: McpListingOrigin): ToolDefinition {
  const annotations = isPlainObject(item.annotations) ? item.annotations : {};
  const readOnly = annotations.readOnlyHint === true;
  // Annotations are the server's own hints: they may mark a tool more dangerous, never exempt it from asking.
  const risk: RiskLevel = annotations.destructiveHint === true && !readOnly ? 'destructive' : 'caution';
  return {
    name: mcpToolName(origin.server, name),
    description: typeof item.description === 'string' ? item.description : '',
    parameters: item.inputSchema,
    risk,
    requiresApproval: true,
    ...(readOnly ? { readOnly: true } : {}),
    provider: origin.provider,
    app: origin.app,
    group: origin.group,
  };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/**
 * What tells one listing from the next (a restart may bring another without notice). A schema too
 * deep to write out counts by its name and description only, rather than failing the listing.
 */
export function listingFingerprint(definitions: readonly ToolDefinition[]): string {
  try {
    return JSON.stringify(definitions.map((d) => [d.name, d.description, d.parameters]));
  } catch {
    return JSON.stringify(
      definitions.map((d) => {
        try {
          return [d.name, d.description, JSON.stringify(d.parameters)];
        } catch {
          return [d.name, d.description, null];
        }
      }),
    );
  }
}
