import type { RuntimeEvent } from '../../core/events.js';
import { type Logger, silentLogger } from '../../core/logger.js';
import type { SessionRecord, SessionStore } from '../../core/session-store.js';
import type { ToolSelector } from '../../retrieval/index.js';
import { createToolSeam, type ToolSeam } from '../../seam/index.js';
import type { ServedTools, ToolRegistry } from '../../tools/registry/tool-registry.js';
import type { DenyRule } from '../runtime-options.js';
import { agentAllows, denyRuleFor, grantsAllow, type SessionAgent } from './tool-access.js';
import {
  buildSurface,
  ServedCache,
  type SurfaceChange,
  surfaceChange,
  type ToolSurface,
} from './tool-surface.js';

/** What the surfaces are built from. */
export interface SessionSurfacesOptions {
  readonly registry: ToolRegistry;
  readonly store: SessionStore;
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
  private lastServed: ServedTools | undefined;

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
    const key = `${session.id}\u0000${agent?.name ?? ''}\u0000${grants?.join('\u0000') ?? '*'}\u0001${leftOut}`;
    const previous = this.surfaces.get(key);
    if (previous) this.surfaces.delete(key);
    if (previous && previous.stamp === served.stamp) {
      this.surfaces.set(key, previous);
      return previous;
    }
    const allows = (name: string): boolean => agentAllows(agent, name) && grantsAllow(grants, name);
    const { k, denyList = [], selector } = this.options;
    const deniedBy = (name: string): DenyRule | undefined => denyRuleFor(denyList, name);
    const surface = buildSurface(
      {
        served,
        seam: this.seam,
        allows,
        deniedBy,
        quarantined,
        ...(k ? { k } : {}),
        ...(selector ? { selector } : {}),
      },
      previous,
    );
    if (!previous) for (const name of session.toolsUsed) surface.retriever.markUsed(name);
    else {
      // The stamp moves whenever the tools may have changed (a server announcing a new list, which
      // may be the same list): the person is told only what a model is now offered otherwise.
      const change = surfaceChange(previous, surface);
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
    await this.options.store.updateSession(session.id, { surfaceStamp: surface.stamp });
    return surface;
  }

  /** How many surfaces are kept now. */
  get size(): number {
    return this.surfaces.size;
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
