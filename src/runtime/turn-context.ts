import type { ApprovalPolicy } from '../core/approval.js';
import type { RuntimeEvent } from '../core/events.js';
import type { Logger } from '../core/logger.js';
import type { ModelAdapter } from '../core/model.js';
import type { SessionStore } from '../core/session-store.js';
import type { ToolRegistry } from '../tools/registry/tool-registry.js';
import type { ApprovalBroker } from './approval-broker.js';
import type { GatePolicy } from './gates.js';
import type { ResolvedLimits } from './runtime-options.js';
import type { RuntimeTool } from './runtime-tool.js';
import type { UnsavedResult } from './store-retry.js';
import type { ToolSurface } from './tool-surface.js';
import type { TurnTools } from './turn-tools.js';

/** What a turn runs with, shared by the loop and the call runner. */
export interface TurnContext {
  readonly model: ModelAdapter;
  readonly registry: ToolRegistry;
  readonly store: SessionStore;
  readonly logger: Logger;
  readonly broker: ApprovalBroker;
  readonly limits: ResolvedLimits;
  readonly approval: {
    readonly policy: ApprovalPolicy;
    readonly timeoutMs: number;
    readonly unattended: boolean;
  };
  readonly gates: GatePolicy;
  readonly secrets: ReadonlyMap<string, string>;
  readonly workspace: readonly string[];
  readonly sessionId: string;
  readonly turnId: string;
  readonly system: string;
  /** The user's request, for tool selection. */
  readonly query: string;
  /** The surface as it was when the turn began (a change never applies mid-turn). */
  readonly surface: ToolSurface;
  /** Tools the runtime answers itself, by name (e.g. `subagent_run`). */
  readonly runtimeTools: ReadonlyMap<string, RuntimeTool>;
  readonly signal: AbortSignal;
  readonly emit: (event: RuntimeEvent) => void;
  /** Scratch space the turn's calls share (e.g. which files were read). */
  readonly turnState: Map<string, unknown>;
  /** How many times each call digest ran this turn (the loop breaker). */
  readonly repeats: Map<string, number>;
  /** Tools whose schema the model asked for this turn: offered with full schemas from the next call. */
  readonly activated: Set<string>;
  /** Tools whose definition the provider refused this turn: never offered again this turn. */
  readonly refused: Set<string>;
  /**
   * Tools quarantined for this provider and model (real name → what the provider said): those from
   * earlier turns are not on the surface at all; those of this turn are in `refused` too.
   */
  readonly quarantined: Map<string, string>;
  /** Set once this turn has sent a request again without the tools it quarantined (it never does twice). */
  resentWithout?: readonly string[];
  /** The turn's tool selection, made once when a step first needs it (see `turnToolsOf`). */
  turnTools?: TurnTools;
  /** How long a store write that may pass (a lock, a full disk) is tried again before the turn gives up. */
  readonly storeRetryMs?: number;
  /** Where a call's outcome goes when the store could not take it in time: the runtime writes it later. */
  readonly unsaved?: UnsavedResult[];
  /** How long a model call may show nothing before the host hears it is still waited for (see `SilenceWatch`). */
  readonly waitingNoticeMs?: number;
  /** Schema budget in characters for the offered tools, when the context window is known. */
  readonly budgetChars: number | undefined;
  /** Set for a subagent leaf: where it may write, what it must not, and its title for approvals. */
  readonly leaf?: {
    readonly title: string;
    /**
     * The session that started the leaf's batch: the conversation the person answers in, so an
     * "always for this session" given to the leaf is held there (and covers the other leaves too).
     */
    readonly parentSessionId?: string;
    readonly writable?: readonly string[];
    readonly offLimits?: readonly string[];
  };
  /** Model calls made so far this turn. */
  modelCalls: number;
  /** Tool calls run so far this turn. */
  toolCalls: number;
}
