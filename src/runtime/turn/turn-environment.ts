import type { ApprovalPolicy } from '../../core/approval.js';
import type { RuntimeEvent } from '../../core/events.js';
import type { Logger } from '../../core/logger.js';
import type { ModelAdapter } from '../../core/model.js';
import type { SessionStore } from '../../core/session-store.js';
import type { ToolRegistry } from '../../tools/registry/tool-registry.js';
import type { ApprovalBroker } from '../calls/approval-broker.js';
import type { GatePolicy } from '../calls/gates/gate-policy.js';
import type { RuntimeTool } from '../calls/runtime-tool.js';
import type { ResolvedLimits } from '../runtime-options.js';
import type { ToolSurface } from '../surface/tool-surface.js';
import type { SessionHistory } from './session-history.js';
import type { UnsavedResult } from './store-retry.js';

/** What a turn runs with, fixed when it starts: nothing in it changes while the turn runs (see `TurnState`). */
export interface TurnEnvironment {
  readonly model: ModelAdapter;
  readonly registry: ToolRegistry;
  readonly store: SessionStore;
  /** The session's conversation as this runtime keeps it: each request reads only what was added since. */
  readonly history: SessionHistory;
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
  /** How long a store write that may pass (a lock, a full disk) is tried again before the turn gives up. */
  readonly storeRetryMs?: number;
  /** Keeps a call's outcome the store could not take in time: the runtime writes it later. */
  readonly keepUnsaved?: (result: UnsavedResult) => void;
  /**
   * True when no outcome is waiting to be written (see `keepUnsaved`): only then may the final answer
   * end the turn in its own write, since those outcomes go in before a turn's end.
   */
  readonly nothingUnsaved?: () => boolean;
  /** How long a model call may show nothing before the host hears it is still waited for (see `SilenceWatch`). */
  readonly waitingNoticeMs?: number;
  /** Schema budget in characters for the offered tools, when the context window is known. */
  readonly budgetChars: number | undefined;
  /** The model's context window in tokens as configured (else known by its family, else a safe default). */
  readonly contextWindow?: number;
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
    /**
     * The leaf runs as a job of its own (hosted mode): a wait for a person parks its turn, as a
     * top-level turn's does, and the answer sends the leaf's job again.
     */
    readonly parks?: boolean;
  };
}
