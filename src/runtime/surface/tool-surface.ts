import { jsonTextOf } from '../../core/json-text-of.js';
import type { WireTool } from '../../core/model.js';
import type { ToolDefinition } from '../../core/tool.js';
import {
  type CatalogView,
  META_TOOLS,
  type RetrievalTool,
  type ToolSelector,
} from '../../retrieval/index.js';
import { type ExcludedTool, type OfferedTool, type ToolSeam, wireName } from '../../seam/index.js';
import type { ServedTools, ToolRegistry } from '../../tools/registry/tool-registry.js';
import type { DenyRule } from '../runtime-options.js';

/** The runtime's own tools, answered by the runtime itself (never dispatched to a provider). */
export const META_TOOL_NAMES: ReadonlySet<string> = new Set(META_TOOLS.map((t) => t.name));

/** Meta-tools as a request carries them. */
export const META_WIRE_TOOLS: readonly WireTool[] = META_TOOLS.map((t) => ({
  name: t.name,
  description: t.description,
  parameters: t.parameters as WireTool['parameters'],
}));

/**
 * What the seam offers one agent (with one run's grants, under one quarantine) at one registry state:
 * shared by every session that sees it.
 */
export interface PreparedSurface {
  /** The registry stamp this surface was built at. */
  readonly stamp: string;
  readonly offered: readonly OfferedTool[];
  readonly excluded: readonly ExcludedTool[];
  /** Offered tools by real name. */
  readonly byName: ReadonlyMap<string, OfferedTool>;
  /** Wire name → real name. */
  readonly wireToReal: ReadonlyMap<string, string>;
  /** The offered tools as retrieval indexes them, in the same order. */
  readonly tools: readonly RetrievalTool[];
  /** Real names withheld by the agent's tool list. */
  readonly withheld: readonly string[];
  /** Tools the deny-list refuses outright, left off the surface: real name → the rule that refuses it. */
  readonly denied: ReadonlyMap<string, DenyRule>;
  /** The wire name a denied tool would travel under → its real name, so a call by it is refused as denied. */
  readonly deniedWire: ReadonlyMap<string, string>;
  /** Tools quarantined for this model, left off the surface: real name → what the provider said. */
  readonly quarantined: ReadonlyMap<string, string>;
}

/** One session's view of the tools: what is offered, under which wire names, and its retriever. */
export interface ToolSurface extends PreparedSurface {
  /** This session's view of the shared catalog; carries its sticky tools across rebuilds. */
  readonly retriever: CatalogView;
  /** What made the catalog, and chooses each turn's tools from it. */
  readonly selector: ToolSelector;
}

/** Serves the registry once per surface stamp, whoever asks. */
export class ServedCache {
  private served: ServedTools | undefined;
  private pending: Promise<ServedTools> | undefined;

  constructor(private readonly registry: ToolRegistry) {}

  /** The registry's tools, served again only when its surface stamp moved. */
  async current(): Promise<ServedTools> {
    if (this.served && this.served.stamp === this.registry.surfaceStamp()) return this.served;
    this.pending ??= this.registry.serve().finally(() => {
      this.pending = undefined;
    });
    this.served = await this.pending;
    return this.served;
  }
}

/** What `prepareSurface` needs. */
export interface SurfaceInputs {
  readonly served: ServedTools;
  readonly seam: ToolSeam;
  /** False for a tool the session's agent may not use (withheld from the offer). */
  readonly allows: (name: string) => boolean;
  /** The deny-list rule that refuses a tool outright, if any (such a tool is never offered). */
  readonly deniedBy?: (name: string) => DenyRule | undefined;
  /** Tools quarantined for the runtime's model (real name → what the provider said): never offered. */
  readonly quarantined?: ReadonlyMap<string, string>;
}

/** Retrieval's view of each offered tool, made once per offer (the seam hands out one offer per definition). */
const retrievalTools = new WeakMap<OfferedTool, RetrievalTool>();

/** The retrieval view of an offered tool: real name, full description, the schema the model is offered. */
export function retrievalToolOf(tool: OfferedTool): RetrievalTool {
  let made = retrievalTools.get(tool);
  if (made === undefined) {
    const def = tool.definition;
    made = {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      ...(def.group ? { group: def.group } : {}),
      ...(def.core ? { core: true } : {}),
    };
    retrievalTools.set(tool, made);
  }
  return made;
}

/** Prepares, through the seam, the tools the served ones leave an agent: the surface without a retriever. */
export function prepareSurface(inputs: SurfaceInputs): PreparedSurface {
  const withheld: string[] = [];
  const allowed: ToolDefinition[] = [];
  const denied = new Map<string, DenyRule>();
  const quarantined = inputs.quarantined ?? new Map<string, string>();
  for (const tool of inputs.served.tools) {
    if (quarantined.has(tool.name)) continue;
    const rule = inputs.deniedBy?.(tool.name);
    if (!inputs.allows(tool.name)) withheld.push(tool.name);
    else if (rule) denied.set(tool.name, rule);
    else allowed.push(tool);
  }
  const turn = inputs.seam.prepare(allowed);
  const deniedWire = new Map<string, string>();
  for (const name of denied.keys()) {
    const wire = wireName(name);
    if (!turn.wireToReal.has(wire) && !deniedWire.has(wire)) deniedWire.set(wire, name);
  }
  return {
    stamp: inputs.served.stamp,
    offered: turn.offered,
    excluded: turn.excluded,
    byName: new Map(turn.offered.map((t) => [t.name, t])),
    wireToReal: turn.wireToReal,
    tools: turn.offered.map(retrievalToolOf),
    withheld,
    denied,
    deniedWire,
    quarantined,
  };
}

/** What changed between two surfaces, by real name. */
export interface SurfaceChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Offered in both, but a model is offered them otherwise now: wire name, description or schema. */
  readonly redefined: readonly string[];
}

/**
 * Added, removed and redefined tools between two surfaces. A tool listed again as it was (a server
 * that re-lists after announcing a change hands out equal definitions as new objects) is none of them.
 */
export function surfaceChange(before: PreparedSurface, after: PreparedSurface): SurfaceChange {
  const added = [...after.byName.keys()].filter((n) => !before.byName.has(n));
  const removed = [...before.byName.keys()].filter((n) => !after.byName.has(n));
  const redefined: string[] = [];
  for (const [name, tool] of after.byName) {
    const was = before.byName.get(name);
    if (was !== undefined && !sameWire(was.wire, tool.wire)) redefined.push(name);
  }
  return { added, removed, redefined };
}

/** True when a request would carry both the same (compared as the JSON text a request sends). */
function sameWire(a: WireTool, b: WireTool): boolean {
  if (a === b) return true;
  if (a.name !== b.name || a.description !== b.description) return false;
  return a.parameters === b.parameters || jsonTextOf(a.parameters) === jsonTextOf(b.parameters);
}
