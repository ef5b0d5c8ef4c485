import type { RuntimeEvent } from '../../core/events.js';
import { type Logger, silentLogger } from '../../core/logger.js';
import type { SessionRecord } from '../../core/session-store.js';
import { CatalogView, lexicalSelector, type ToolSelector } from '../../retrieval/index.js';
import { createToolSeam } from '../../seam/index.js';
import type { ServedTools, ToolRegistry } from '../../tools/registry/tool-registry.js';
import type { DenyRule } from '../runtime-options.js';
import { type SharedSurface, SharedSurfaces } from './shared-surfaces.js';
import type { SessionAgent } from './tool-access.js';
import {
  type PreparedSurface,
  ServedCache,
  type SurfaceChange,
  surfaceChange,
  type ToolSurface,
} from './tool-surface.js';

/** What the surfaces are built from. */
export interface SessionSurfacesOptions {
  readonly registry: ToolRegistry;
  readonly logger?: Logger;
  readonly k?: number;
  /** How turns choose their tools (see `RuntimeOptions.selector`). */
  readonly selector?: ToolSelector;
  /** The runtime's deny-list: a tool it refuses outright is never offered. */
  readonly denyList?: readonly DenyRule[];
  /** Told of each new serving of the registry's tools (a new surface stamp), before any surface is built on it. */
  readonly onServed?: (served: ServedTools) => void;
}

/**
 * How many sessions' surfaces are kept: the sessions used most recently. A long-running host makes
 * sessions (and subagent leaves) without end. A kept surface is small: it shares its offer and the
 * catalog's index with every session that sees the same tools, and holds only the session's own
 * retrieval state (tools it called, its last turn's hints and offer, the last selection's relevance).
 */
export const MAX_KEPT_SURFACES = 32;

/**
 * Every session's tool surface, one per session and agent: made at a session's first turn and again
 * at the start of a turn (never mid-turn) when the registry's surface stamp moved. The offer and the
 * retrieval index behind it are shared (see `SharedSurfaces`); a session keeps its own view of them.
 * Only the most recently used are kept; a session whose surface was let go starts its view again
 * from the tools its record says it called.
 */
export class SessionSurfaces {
  private readonly served: ServedCache;
  private readonly shared: SharedSurfaces;
  private readonly surfaces = new Map<string, ToolSurface>();
  private readonly logger: Logger;
  private readonly selector: ToolSelector;
  private lastServed: ServedTools | undefined;
  /** The last change worked out, as every session moving between the same two offers asks for it. */
  private lastChange: { before: PreparedSurface; after: PreparedSurface; change: SurfaceChange } | undefined;

  constructor(private readonly options: SessionSurfacesOptions) {
    this.logger = options.logger ?? silentLogger;
    this.served = new ServedCache(options.registry);
    this.selector = options.selector ?? lexicalSelector;
    this.shared = new SharedSurfaces({
      seam: createToolSeam({ logger: this.logger }),
      selector: this.selector,
      k: options.k || undefined,
      denyList: options.denyList ?? [],
      onMove: (left) => this.pinLeft(left),
    });
  }

  /**
   * The session's surface for this turn; a rebuild is told to the host as a notice. Only tools the
   * agent allows and the run's grants (a subagent leaf's) cover are offered. The caller stores the
   * surface's stamp on the session (with whatever else it writes there as the turn starts).
   */
  async forSession(
    session: SessionRecord,
    agent: SessionAgent,
    emit: (event: RuntimeEvent) => void,
    grants?: readonly string[],
    quarantined: ReadonlyMap<string, string> = new Map(),
  ): Promise<ToolSurface> {
    const served = await this.served.current();
    if (served !== this.lastServed) {
      this.lastServed = served;
      this.options.onServed?.(served);
    }
    // A tool quarantined or lifted since makes another surface, as another agent would.
    const leftOut = [...quarantined.keys()].sort().join('\u0000');
    const accessKey = `${agent?.name ?? ''}\u0000${grants?.join('\u0000') ?? '*'}\u0001${leftOut}`;
    const key = `${session.id}\u0000${accessKey}`;
    const previous = this.surfaces.get(key);
    if (previous) this.surfaces.delete(key);
    if (previous && previous.stamp === served.stamp) {
      this.surfaces.set(key, previous);
      return previous;
    }
    const shared = this.shared.surfaceFor(served, { agent, grants, quarantined }, accessKey, leftOut);
    const surface: ToolSurface = {
      ...shared.prepared,
      retriever: this.viewFor(shared, previous),
      selector: this.selector,
    };
    if (!previous) for (const name of session.toolsUsed) surface.retriever.markUsed(name);
    else {
      // The stamp moves whenever the tools may have changed (a server announcing a new list, which
      // may be the same list): the person is told only what a model is now offered otherwise.
      const change = this.changeBetween(previous, shared.prepared);
      const message = changeNote(change);
      if (message !== undefined) {
        this.logger.log({ level: 'info', scope: 'runtime', message, fields: { ...change } });
        emit({ type: 'notice', message });
      }
    }
    this.surfaces.set(key, surface);
    if (this.surfaces.size > MAX_KEPT_SURFACES) {
      const oldest = this.surfaces.keys().next().value as string;
      this.surfaces.delete(oldest);
    }
    return surface;
  }

  /** Lets a session's surfaces go (the session was deleted: a new one may take its id). */
  forget(sessionId: string): void {
    for (const key of [...this.surfaces.keys()]) {
      if (key.startsWith(`${sessionId}\u0000`)) this.surfaces.delete(key);
    }
  }

  /** How many surfaces are kept now. */
  get size(): number {
    return this.surfaces.size;
  }

  /** The session's view of the shared catalog, carrying what its previous view knew of the session. */
  private viewFor(shared: SharedSurface, previous: ToolSurface | undefined): CatalogView {
    const view = new CatalogView(shared.catalog, shared.visible);
    if (previous) view.carryFrom(previous.retriever);
    return view;
  }

  /**
   * The catalog is moving on to another registry state: a kept surface that saw all of it sees only
   * what it offers from now on (a turn under way keeps to the tools it began with).
   */
  private pinLeft(left: SharedSurface): void {
    // One filter for them all: the catalog keeps what it works out per filter.
    const offered = left.prepared.byName;
    const visible = (name: string): boolean => offered.has(name);
    for (const surface of this.surfaces.values()) {
      if (surface.byName === offered) surface.retriever.limitTo(visible);
    }
  }

  private changeBetween(before: PreparedSurface, after: PreparedSurface): SurfaceChange {
    const last = this.lastChange;
    if (last !== undefined && last.before.byName === before.byName && last.after === after)
      return last.change;
    const change = surfaceChange(before, after);
    this.lastChange = { before, after, change };
    return change;
  }
}

/** How many names a note lists before it counts the rest. */
const NAMED = 3;

/** The note for a changed surface, naming what changed; undefined when a model is offered the same tools. */
function changeNote(change: SurfaceChange): string | undefined {
  const named = (names: readonly string[]): string => {
    const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
    return `${names.slice(0, NAMED).join(', ')}${more}`;
  };
  const parts: string[] = [];
  if (change.added.length > 0) parts.push(`${change.added.length} added (${named(change.added)})`);
  if (change.removed.length > 0) parts.push(`${change.removed.length} removed (${named(change.removed)})`);
  if (change.redefined.length > 0) {
    parts.push(
      `${change.redefined.length} offered with a new description or schema (${named(change.redefined)})`,
    );
  }
  if (parts.length === 0) return undefined;
  return `The tools changed since this session's last turn: ${parts.join(', ')}.`;
}
