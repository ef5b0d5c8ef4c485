import type { RuntimeEvent } from '../core/events.js';
import { type Logger, silentLogger } from '../core/logger.js';
import type { SessionRecord, SessionStore } from '../core/session-store.js';
import { createToolSeam, type ToolSeam } from '../seam/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import { agentAllows, type GatePolicy, grantsAllow } from './gates.js';
import { buildSurface, ServedCache, surfaceChange, type ToolSurface } from './tool-surface.js';

/** What the surfaces are built from. */
export interface SessionSurfacesOptions {
  readonly registry: ToolRegistry;
  readonly store: SessionStore;
  readonly logger?: Logger;
  readonly k?: number;
}

/**
 * How many surfaces are kept: the sessions used most recently. A long-running host makes sessions
 * (and subagent leaves) without end, and each surface holds its own retrieval index.
 */
export const MAX_KEPT_SURFACES = 32;

/**
 * Every session's tool surface, one per session and agent: built at a session's first turn and
 * rebuilt at the start of a turn (never mid-turn) when the registry's surface stamp moved. Only the
 * most recently used are kept; a session whose surface was let go builds it again as at its start.
 */
export class SessionSurfaces {
  private readonly seam: ToolSeam;
  private readonly served: ServedCache;
  private readonly surfaces = new Map<string, ToolSurface>();
  private readonly logger: Logger;

  constructor(private readonly options: SessionSurfacesOptions) {
    this.logger = options.logger ?? silentLogger;
    this.seam = createToolSeam({ logger: this.logger });
    this.served = new ServedCache(options.registry);
  }

  /**
   * The session's surface for this turn; a rebuild is told to the host as a notice. Only tools the
   * agent allows and the run's grants (a subagent leaf's) cover are offered.
   */
  async forSession(
    session: SessionRecord,
    agent: GatePolicy['agent'],
    emit: (event: RuntimeEvent) => void,
    grants?: readonly string[],
    quarantined: ReadonlyMap<string, string> = new Map(),
  ): Promise<ToolSurface> {
    const served = await this.served.current();
    // A tool quarantined or lifted since makes another surface, as another agent would.
    const leftOut = [...quarantined.keys()].sort().join('\u0000');
    const key = `${session.id}\u0000${agent?.name ?? ''}\u0000${grants?.join('\u0000') ?? '*'}\u0001${leftOut}`;
    const previous = this.surfaces.get(key);
    if (previous) this.surfaces.delete(key);
    if (previous && previous.stamp === served.stamp) {
      this.surfaces.set(key, previous);
      return previous;
    }
    const allows = (name: string): boolean => agentAllows(agent, name) && grantsAllow(grants, name);
    const k = this.options.k;
    const surface = buildSurface(
      { served, seam: this.seam, allows, quarantined, ...(k ? { k } : {}) },
      previous,
    );
    if (!previous) for (const name of session.toolsUsed) surface.retriever.markUsed(name);
    else {
      const { added, removed } = surfaceChange(previous, surface);
      const message = `The tools changed since this session's last turn: ${added.length} added, ${removed.length} removed.`;
      this.logger.log({ level: 'info', scope: 'runtime', message, fields: { added, removed } });
      emit({ type: 'notice', message });
    }
    this.surfaces.set(key, surface);
    if (this.surfaces.size > MAX_KEPT_SURFACES) {
      const oldest = this.surfaces.keys().next().value as string;
      this.surfaces.delete(oldest);
    }
    await this.options.store.updateSession(session.id, { surfaceStamp: surface.stamp });
    return surface;
  }

  /** How many surfaces are kept now. */
  get size(): number {
    return this.surfaces.size;
  }
}
