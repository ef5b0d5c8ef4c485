import { type Logger, silentLogger } from '../core/logger.js';
import type { SchemaIssue } from './schema-issue.js';
import type { ExcludedTool, OfferedTool } from './tool-offer.js';

/** The runtime's own tools: a provider tool may neither have nor travel under these names. */
export const RESERVED_TOOL_NAMES: readonly string[] = Object.freeze([
  'tool_search',
  'tool_schema',
  'reset_tools',
  'subagent_run',
  'tool_result_read',
]);

/** The tools that stay offered once wire names are settled, and the way back from a wire name. */
export interface NameCensus {
  readonly offered: readonly OfferedTool[];
  readonly excluded: readonly ExcludedTool[];
  /** Wire name → real name for every offered tool. */
  readonly wireToReal: ReadonlyMap<string, string>;
}

/** Options of `nameCensus`. */
export interface CensusOptions {
  /** Names of the runtime's own tools (default `RESERVED_TOOL_NAMES`). */
  readonly reserved?: readonly string[];
  readonly logger?: Logger;
}

/**
 * Settles wire names: a tool that has, or travels under, one of the runtime's own names is left
 * out; so is a tool whose real name a tool listed before it has. When several real names travel
 * under one wire name, the tool whose real name IS that wire name keeps it and the others are left
 * out (all of them when none is). Everything else stays.
 */
export function nameCensus(tools: readonly OfferedTool[], options: CensusOptions = {}): NameCensus {
  const reserved = new Set(options.reserved ?? RESERVED_TOOL_NAMES);
  const logger = options.logger ?? silentLogger;
  const byWire = new Map<string, OfferedTool[]>();
  const excluded: ExcludedTool[] = [];
  for (const tool of tools) {
    if (reserved.has(tool.name) || reserved.has(tool.wireName)) {
      excluded.push(shadowing(tool, logger));
      continue;
    }
    const group = byWire.get(tool.wireName);
    if (group === undefined) byWire.set(tool.wireName, [tool]);
    // A name listed twice is one tool, as the registry reads a listing: the first is offered.
    else if (group.some((t) => t.name === tool.name)) excluded.push(repeated(tool, logger));
    else group.push(tool);
  }
  const kept = new Set<OfferedTool>();
  const wireToReal = new Map<string, string>();
  for (const [wire, group] of byWire) {
    const owner = group.length === 1 ? group[0] : group.find((t) => t.name === wire);
    if (owner !== undefined) {
      kept.add(owner);
      wireToReal.set(wire, owner.name);
    }
    if (group.length > 1) excluded.push(...collision(wire, group, owner, logger));
  }
  return { offered: tools.filter((t) => kept.has(t)), excluded, wireToReal };
}

/** The real name a model's call means: a real name as it is, else the tool behind a wire name. */
export function realNameOf(census: NameCensus, called: string): string | undefined {
  if (census.wireToReal.get(called) !== undefined) return census.wireToReal.get(called);
  return census.offered.some((t) => t.name === called) ? called : undefined;
}

function shadowing(tool: OfferedTool, logger: Logger): ExcludedTool {
  const message = `it would travel as ${JSON.stringify(tool.wireName)}, a name the runtime's own tool has`;
  logger.once(`census\u0000shadow\u0000${tool.name}`, {
    level: 'info',
    scope: 'census',
    message: `tool ${JSON.stringify(tool.name)} is NOT offered to models: ${message}; its author should rename it.`,
    fields: {
      app: tool.origin.app,
      provider: tool.origin.provider,
      tool: tool.name,
      wireName: tool.wireName,
    },
  });
  return excludedFor(tool, 'shadows_runtime_tool', message);
}

function repeated(tool: OfferedTool, logger: Logger): ExcludedTool {
  const message = 'another tool listed before it has the same name';
  logger.once(`census\u0000repeat\u0000${tool.name}`, {
    level: 'info',
    scope: 'census',
    message: `tool ${JSON.stringify(tool.name)} is listed more than once; only the first is offered to models.`,
    fields: { app: tool.origin.app, provider: tool.origin.provider, tool: tool.name },
  });
  return excludedFor(tool, 'name_collision', message);
}

function collision(
  wire: string,
  group: OfferedTool[],
  owner: OfferedTool | undefined,
  logger: Logger,
): ExcludedTool[] {
  const gone = group.filter((t) => t !== owner);
  const names = gone.map((t) => JSON.stringify(t.name)).join(', ');
  const message =
    owner === undefined
      ? `several tools would travel as ${JSON.stringify(wire)}, so a call to that name could not be told apart`
      : `it would travel as ${JSON.stringify(wire)}, which is the real name of another tool`;
  logger.once(`census\u0000collision\u0000${wire}\u0000${group.map((t) => t.name).join('\u0000')}`, {
    level: 'info',
    scope: 'census',
    message: `tools ${names} are NOT offered to models: ${message}; their authors should rename one of them.`,
    fields: { wireName: wire, tools: gone.map((t) => t.name), kept: owner?.name },
  });
  return gone.map((t) => excludedFor(t, 'name_collision', message));
}

function excludedFor(
  tool: OfferedTool,
  reason: 'name_collision' | 'shadows_runtime_tool',
  message: string,
): ExcludedTool {
  const rule = reason === 'name_collision' ? 'name_collision' : 'name_reserved';
  const issues: SchemaIssue[] = [{ rule, path: '', detail: message, action: 'blocking' }];
  return {
    kind: 'excluded',
    definition: tool.definition,
    name: tool.name,
    reason,
    message,
    issues,
    origin: tool.origin,
  };
}
