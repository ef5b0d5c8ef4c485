import type { ApprovalPolicy } from '../core/approval.js';
import { ToolseamError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { ModelAdapter } from '../core/model.js';
import type { ApprovalRecord, SessionStore, TurnConfig } from '../core/session-store.js';
import type { Signals } from '../core/signals.js';
import type { ToolSelector } from '../retrieval/index.js';
import type { ToolRegistry } from '../tools/registry/tool-registry.js';
import type { PreToolHook } from './calls/gates/pre-tool-hooks.js';

/** What a session may do: `plan` lets only read-only tools run. */
export type TaskMode = 'agent' | 'plan';

/** An agent: a named role with its own tool list, mode and instructions. */
export interface AgentConfig {
  /** Glob patterns over real tool names; the agent may use only matching tools (all when absent). */
  readonly tools?: readonly string[];
  readonly mode?: TaskMode;
  /** Extra instructions added to the system text. */
  readonly instructions?: string;
  readonly description?: string;
}

/** A deny-list entry: tools matching `tool` (a glob over real names) never run. */
export interface DenyRule {
  readonly tool: string;
  readonly reason?: string;
}

/** Bounds on one turn. */
export interface TurnLimits {
  /** Model calls per turn (default 24). */
  readonly maxModelCalls?: number;
  /** Tool calls per turn (default 64). */
  readonly maxToolCalls?: number;
  /** Identical calls (same tool, same arguments) allowed per turn before the loop breaker refuses (default 2). */
  readonly repeatLimit?: number;
  /** Characters of one tool result the model reads (default 20,000). */
  readonly resultChars?: number;
  /** Characters of arguments one call may carry; a longer call is answered with an error, not run or kept (default 1,000,000). */
  readonly argumentChars?: number;
  /** Calls run at once when none needs approval (default 4). */
  readonly parallelCalls?: number;
}

/** How approvals are asked for and waited on. */
export interface ApprovalOptions {
  /** `ask` (default), `auto` (approve everything) or `deny` (refuse everything that asks). */
  readonly policy?: ApprovalPolicy;
  /** How long a request waits for an answer (default 5 minutes). */
  readonly timeoutMs?: number;
  /** Nobody is there to answer: anything that asks is declined at once. */
  readonly unattended?: boolean;
  /**
   * How often a waiting turn reads the store for an answer written by another process: default 1 s with
   * signals that stay in this process (`toolseam approve` in another terminal sends none), 5 s
   * (`SLOW_POLL_MS`) when they reach other processes, where a wake-up comes with each answer.
   */
  readonly pollMs?: number;
}

/** Everything a runtime is built from. */
export interface RuntimeOptions {
  readonly model: ModelAdapter;
  /** The base URL the model is reached at, stored with each turn (absent: unknown, e.g. a host's own adapter). */
  readonly modelBaseURL?: string;
  /** The configuration the runtime was built from, stored with each turn (absent: not told). */
  readonly ranWith?: TurnConfig;
  readonly registry: ToolRegistry;
  readonly store: SessionStore;
  readonly logger?: Logger;
  /** The system text every session starts from. */
  readonly system?: string;
  readonly approvals?: ApprovalOptions;
  readonly limits?: TurnLimits;
  readonly agents?: Readonly<Record<string, AgentConfig>>;
  readonly denyList?: readonly DenyRule[];
  readonly hooks?: readonly PreToolHook[];
  /** Secret name → value: redacted from every result. */
  readonly secrets?: ReadonlyMap<string, string>;
  /** Folders the file tools may touch. */
  readonly workspace?: readonly string[];
  /** The model's context window in tokens, to bound the schemas a turn sends. */
  readonly contextWindow?: number;
  /** Tools offered with full schemas per turn (default 48). */
  readonly k?: number;
  /** How each turn chooses the tools it offers (default `lexicalSelector`, by words; `embeddingSelector` adds meaning). */
  readonly selector?: ToolSelector;
  /** Who runs this runtime's turns (stored with each turn), default `host:pid/<random>`: one per runtime. */
  readonly owner?: string;
  /** How often the turns this runtime drives are marked alive in the store, default 15 s (tests shorten it). */
  readonly heartbeatMs?: number;
  /** How long a model call may show nothing before `model-waiting` events start, default 10 s. */
  readonly waitingNoticeMs?: number;
  /**
   * How long a turn keeps trying a store write refused for a reason that may pass (another process holding
   * the lock, a full disk), default 60 s: the tool's output or the model's reply is kept meanwhile.
   */
  readonly storeRetryMs?: number;
  /**
   * Wake-ups between the parts of a host and its processes (an answered approval, a turn's new events);
   * default `LocalSignals`, within this process. Closed by the runtime's `close`.
   */
  readonly signals?: Signals;
  /** Set when turns go through a job queue (hosted mode; `runtime/jobs/`). */
  readonly hosted?: HostedOptions;
}

/** How a runtime behaves among the processes of a hosted deployment (a job queue, workers). */
export interface HostedOptions {
  /**
   * A turn that waits for a person is parked (it stays in the store, no process holds it) instead of
   * waiting here; the answer puts its continuation on the queue. Workers set it.
   */
  readonly parkApprovals?: boolean;
  /**
   * Subagent leaves run as jobs of their own: a turn's `subagent_run` call stores its batch and parks
   * the turn (no process holds it while the leaves run on any worker); the end of the batch's last leaf
   * puts its continuation on the queue. Workers set it.
   */
  readonly parkBatches?: boolean;
  /** Called once a turn parked on its batches: hosted mode sends the leaves that may start as jobs. */
  readonly onBatchParked?: (turnId: string) => Promise<void>;
  /** How long another host's turn owner may stay silent before its turns are taken over (default 2 min). */
  readonly ownerSilentMs?: number;
  /** Called after an approval is answered through this runtime: hosted mode enqueues the turn's continuation. */
  readonly onAnswered?: (approval: ApprovalRecord) => Promise<void>;
}

/** Options with every default applied. */
export interface ResolvedLimits {
  readonly maxModelCalls: number;
  readonly maxToolCalls: number;
  readonly repeatLimit: number;
  readonly resultChars: number;
  readonly argumentChars: number;
  readonly parallelCalls: number;
}

/** The limits with their defaults. */
export function resolveLimits(limits: TurnLimits = {}): ResolvedLimits {
  return {
    maxModelCalls: limits.maxModelCalls ?? 24,
    maxToolCalls: limits.maxToolCalls ?? 64,
    repeatLimit: limits.repeatLimit ?? 2,
    resultChars: limits.resultChars ?? 20_000,
    argumentChars: limits.argumentChars ?? 1_000_000,
    parallelCalls: limits.parallelCalls ?? 4,
  };
}

/** The agent configured under `name`, if any (only the runtime's own entries, never an inherited property). */
export function agentNamed(options: RuntimeOptions, name: string | undefined): AgentConfig | undefined {
  const agents = options.agents;
  return name !== undefined && agents !== undefined && Object.hasOwn(agents, name) ? agents[name] : undefined;
}

/**
 * Refuses an agent the configuration does not define and a task mode other than agent or plan, before
 * any turn is stored or taken over (a mistyped mode must not run as agent mode, with writes allowed).
 */
export function refuseUnknownGates(
  options: RuntimeOptions,
  gates: { readonly agent?: string | undefined; readonly mode?: string | undefined },
): void {
  if (gates.mode !== undefined && gates.mode !== 'agent' && gates.mode !== 'plan') {
    throw new ToolseamError(
      'unknown_mode',
      `There is no task mode ${JSON.stringify(gates.mode)}; a turn runs in "agent" or "plan" mode.`,
    );
  }
  if (gates.agent === undefined || agentNamed(options, gates.agent) !== undefined) return;
  const known = Object.keys(options.agents ?? {});
  const listed =
    known.length > 0 ? `the configured agents are ${known.join(', ')}` : 'the configuration defines none';
  throw new ToolseamError('unknown_agent', `There is no agent named "${gates.agent}"; ${listed}.`);
}
