import type { ToolCatalog, ToolSelector } from '../../retrieval/index.js';
import type { ToolSeam } from '../../seam/index.js';
import type { ServedTools } from '../../tools/registry/tool-registry.js';
import type { DenyRule } from '../runtime-options.js';
import { agentAllows, denyRuleFor, grantsAllow, type SessionAgent } from './tool-access.js';
import { type PreparedSurface, prepareSurface } from './tool-surface.js';

/**
 * How many narrowed surfaces (an agent's tool list, a subagent leaf's grants) are kept besides the
 * whole one. Each holds its offer (an array and two maps of at most the registry's tools) and, only
 * when its list splits a wire-name collision of the whole offer, a catalog of its own.
 */
export const MAX_KEPT_NARROWED = 16;

/** A prepared surface, the catalog its sessions read, and which of the catalog's tools they see. */
export interface SharedSurface {
  readonly prepared: PreparedSurface;
  readonly catalog: ToolCatalog;
  /** Leaves out the catalog's tools this surface does not offer; undefined when it offers them all. */
  readonly visible: ((name: string) => boolean) | undefined;
}

/** A shared surface with the registry state and quarantine it was prepared at. */
type KeptSurface = SharedSurface & { readonly state: string };

/** What one session is offered by: its agent, its run's grants, the model's quarantined tools. */
export interface SurfaceAccess {
  readonly agent: SessionAgent;
  readonly grants: readonly string[] | undefined;
  readonly quarantined: ReadonlyMap<string, string>;
}

/** What the shared surfaces are built from. */
export interface SharedSurfacesOptions {
  readonly seam: ToolSeam;
  readonly selector: ToolSelector;
  readonly k: number | undefined;
  readonly denyList: readonly DenyRule[];
  /** Told before the catalog moves to another registry state, with the surface it leaves. */
  readonly onMove: (left: SharedSurface) => void;
}

/**
 * The surfaces and the one catalog that sessions share. The whole surface (every tool no quarantine
 * or deny-list rule holds back) is prepared once per registry state, and its tools are the catalog:
 * one index, brought to each new state incrementally. A narrower surface (an agent's tool list, a
 * leaf's grants) sees the same catalog through a filter, so the index is never copied.
 */
export class SharedSurfaces {
  private catalog: ToolCatalog | undefined;
  private whole: KeptSurface | undefined;
  private readonly narrowed = new Map<string, KeptSurface>();

  constructor(private readonly options: SharedSurfacesOptions) {}

  /** The surface `access` is offered at the served registry state. */
  surfaceFor(
    served: ServedTools,
    access: SurfaceAccess,
    accessKey: string,
    leftOutKey: string,
  ): SharedSurface {
    const whole = this.wholeFor(served, access.quarantined, leftOutKey);
    if (access.agent?.config.tools === undefined && access.grants === undefined) return whole;
    const state = whole.state;
    const kept = this.narrowed.get(accessKey);
    if (kept !== undefined) {
      this.narrowed.delete(accessKey);
      if (kept.state === state) {
        this.narrowed.set(accessKey, kept);
        return kept;
      }
    }
    const allows = (name: string): boolean =>
      agentAllows(access.agent, name) && grantsAllow(access.grants, name);
    const prepared = this.prepare(served, allows, access.quarantined);
    const made = prepared.withheld.length === 0 ? whole : this.narrowedOf(prepared, whole);
    this.narrowed.set(accessKey, made);
    if (this.narrowed.size > MAX_KEPT_NARROWED) {
      this.narrowed.delete(this.narrowed.keys().next().value as string);
    }
    return made;
  }

  /**
   * A narrowed surface: a filter over the whole one's catalog, unless its list leaves out one of two
   * tools sharing a wire name and so offers the other, which the whole surface does not; only then
   * does it need an index of its own.
   */
  private narrowedOf(prepared: PreparedSurface, whole: KeptSurface): KeptSurface {
    const { byName, tools } = prepared;
    const state = whole.state;
    if (tools.every((t) => whole.prepared.byName.has(t.name))) {
      return { prepared, catalog: whole.catalog, visible: (name) => byName.has(name), state };
    }
    const catalog = this.options.selector.catalog(tools, this.options.k);
    return { prepared, catalog, visible: undefined, state };
  }

  /** The whole surface at this registry state and quarantine, the catalog brought to its tools. */
  private wholeFor(
    served: ServedTools,
    quarantined: ReadonlyMap<string, string>,
    leftOutKey: string,
  ): KeptSurface {
    const state = `${served.stamp}\u0001${leftOutKey}`;
    if (this.whole?.state === state) return this.whole;
    const prepared = this.prepare(served, () => true, quarantined);
    if (this.catalog === undefined) {
      this.catalog = this.options.selector.catalog(prepared.tools, this.options.k);
    } else {
      if (this.whole !== undefined) this.options.onMove(this.whole);
      this.catalog.setTools(prepared.tools);
    }
    this.whole = { prepared, catalog: this.catalog, visible: undefined, state };
    return this.whole;
  }

  private prepare(
    served: ServedTools,
    allows: (name: string) => boolean,
    quarantined: ReadonlyMap<string, string>,
  ): PreparedSurface {
    const { seam, denyList } = this.options;
    const deniedBy = (name: string): DenyRule | undefined => denyRuleFor(denyList, name);
    return prepareSurface({ served, seam, allows, deniedBy, quarantined });
  }
}
