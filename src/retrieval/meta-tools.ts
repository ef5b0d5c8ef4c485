import { isPlainObject } from '../core/json.js';
import type { ToolDefinition, ToolResult } from '../core/tool.js';
import type { CatalogView } from './catalog-view.js';
import type { RetrievalTool } from './retrieval-tool.js';
import { cutText } from './text-cut.js';

/** Answers `tool_search` gives when the model names no limit. */
export const DEFAULT_SEARCH_LIMIT = 20;
/** Most answers one `tool_search` call may ask for. */
export const MAX_SEARCH_LIMIT = 50;
/**
 * Most characters of the model's own query or name an answer repeats: a pasted block echoed whole
 * would fill the result's room before the answer itself.
 */
const ECHO_CHARS = 120;

/** `tool_search`: ranks every tool of the catalog, offered this turn or not. Safe, never gated. */
export const TOOL_SEARCH: ToolDefinition = {
  name: 'tool_search',
  description:
    'Find tools by what they can do. Ranks the whole tool catalog, including tools this turn lists only ' +
    'by name. Returns names with short descriptions; call tool_schema(name) to see a tool’s inputs, or ' +
    'call the tool directly by name.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you need done, in a few words (e.g. "convert currency").' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SEARCH_LIMIT,
        description: `How many tools to return (${DEFAULT_SEARCH_LIMIT} when left out).`,
      },
    },
    required: ['query'],
  },
  risk: 'safe',
  requiresApproval: false,
  core: true,
  readOnly: true,
};

/** `tool_schema`: a tool's full description and input schema by name. Safe, never gated. */
export const TOOL_SCHEMA: ToolDefinition = {
  name: 'tool_schema',
  description:
    'Show the full description and input schema of one tool by its exact name. Use it when the catalog ' +
    'lists a tool you want but you need its arguments; then call the tool by name.',
  parameters: {
    type: 'object',
    properties: { name: { type: 'string', description: 'The exact tool name, as listed.' } },
    required: ['name'],
  },
  risk: 'safe',
  requiresApproval: false,
  core: true,
  readOnly: true,
};

/** Both meta-tools, for the runtime to offer whenever a turn defers tools. */
export const META_TOOLS: readonly ToolDefinition[] = [TOOL_SEARCH, TOOL_SCHEMA];

/** What the run may use; tools outside it are never answered. */
export interface MetaToolOptions {
  readonly shown?: (name: string) => boolean;
  /** The real name behind a name the model saw on the wire (offered tools travel under wire names). */
  readonly realName?: (name: string) => string | undefined;
  /** Why a tool that exists but is not in the catalog cannot be used here; undefined when none has the name. */
  readonly unavailable?: (name: string) => string | undefined;
}

/** The opening of the system note that carries the catalog (the catalog text follows on the next line). */
export const CATALOG_NOTE =
  '[tool catalog] To save room, only the tools most relevant to this request carry their full input ' +
  'schema this turn. The rest are listed below by group: the platform’s own groups first, each saying ' +
  'what it is for and naming every tool it has, then your tool servers and apps as room allows; a last ' +
  'line names what is not listed. To use any of them, call tool_schema("name") to see its inputs and then ' +
  'call it, or call tool_search("what you need") to rank every tool, listed or not. Every tool stays available.';

/** The system note for a turn: the explanation, then the catalog. "" when nothing is deferred. */
export function catalogNote(catalogText: string): string {
  return catalogText === '' ? '' : `${CATALOG_NOTE}\n${catalogText}`;
}

/** Runs a `tool_search` call: a ranked list the model reads, or an error result saying what to fix. */
export function answerToolSearch(
  retriever: CatalogView,
  args: unknown,
  options: MetaToolOptions = {},
): ToolResult {
  const parsed = readArgs(args);
  if (typeof parsed === 'string') return failure(parsed);
  const query = parsed.query;
  if (typeof query !== 'string') {
    return failure(
      'tool_search needs "query": a few words saying what you need done (e.g. "send an email").',
    );
  }
  let limit = DEFAULT_SEARCH_LIMIT;
  if (parsed.limit !== undefined && parsed.limit !== null && parsed.limit !== '') {
    const n = typeof parsed.limit === 'string' ? Number(parsed.limit.trim()) : parsed.limit;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
      return failure(
        `tool_search "limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}; leave it out for ${DEFAULT_SEARCH_LIMIT}.`,
      );
    }
    limit = Math.min(n, MAX_SEARCH_LIMIT);
  }
  const hits = retriever.search(query, {
    limit,
    ...(options.shown ? { shown: options.shown } : {}),
    ...(options.realName ? { realName: options.realName } : {}),
  });
  if (hits.length === 0) {
    return {
      content: 'No tool matched that. Try other or broader words; every tool can still be called by name.',
      isError: false,
      data: { hits: [] },
    };
  }
  const lines = hits.map((h) => (h.description ? `- ${h.name}: ${h.description}` : `- ${h.name}`));
  return {
    content: `Tools matching "${cutText(query, ECHO_CHARS)}" (call tool_schema(name) for inputs, or call one by name):\n${lines.join('\n')}`,
    isError: false,
    data: { hits },
  };
}

/** Runs a `tool_schema` call: the tool's description and parameters as JSON, or an error naming the fix. */
export function answerToolSchema(
  retriever: CatalogView,
  args: unknown,
  options: MetaToolOptions = {},
): ToolResult {
  const parsed = readArgs(args);
  if (typeof parsed === 'string') return failure(parsed);
  const want = parsed.name ?? parsed.tool_name;
  if (typeof want !== 'string' || want.trim() === '') {
    return failure(
      'tool_schema needs "name": the exact name of a tool, as the catalog or tool_search lists it.',
    );
  }
  const real = options.realName?.(want);
  const tool = retriever.get(want) ?? (real === undefined ? undefined : retriever.get(real));
  if (!tool || (options.shown && !options.shown(tool.name))) {
    const why = tool ? undefined : options.unavailable?.(want);
    if (why !== undefined) {
      // Pointing at tool_search would send the model looking for a tool it has already found.
      return failure(`"${cutText(want, ECHO_CHARS)}" exists but cannot be used here: ${why}.`);
    }
    return failure(
      `There is no tool named "${cutText(want, ECHO_CHARS)}" available here. Names are exact and case-sensitive; call tool_search("what you need") to find the right one.`,
    );
  }
  const answer = schemaAnswer(tool);
  return { content: JSON.stringify(answer, null, 2), isError: false, data: answer };
}

/** The object `tool_schema` answers with. */
function schemaAnswer(tool: RetrievalTool): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters ?? { type: 'object', properties: {} },
  };
  if (tool.group) out.group = tool.group.key;
  const extra = tool as Partial<Pick<ToolDefinition, 'requiresApproval' | 'provider'>>;
  if (typeof extra.provider === 'string') out.provider = extra.provider;
  if (typeof extra.requiresApproval === 'boolean') out.requiresApproval = extra.requiresApproval;
  return out;
}

/** Arguments as an object (JSON text is decoded), or a sentence saying why they cannot be read. */
function readArgs(args: unknown): Record<string, unknown> | string {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return 'The arguments are not valid JSON; send an object such as {"query": "send an email"}.';
    }
  }
  if (value === undefined || value === null) return {};
  return isPlainObject(value)
    ? value
    : 'The arguments must be a JSON object, such as {"query": "send an email"}.';
}

function failure(message: string): ToolResult {
  return { content: message, isError: true };
}
