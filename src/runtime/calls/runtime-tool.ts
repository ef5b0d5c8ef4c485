import type { RuntimeEvent } from '../../core/events.js';
import type { JsonObject } from '../../core/json.js';
import type { WireTool } from '../../core/model.js';
import type { SessionStore } from '../../core/session-store.js';
import type { ToolDefinition, ToolResult } from '../../core/tool.js';
import type { TaskMode } from '../runtime-options.js';

/** What a runtime tool's call is given: the call, its turn's ids and stop, and what the turn offers. */
export interface RuntimeToolContext {
  readonly sessionId: string;
  readonly turnId: string;
  readonly callId: string;
  /** The turn's stop. */
  readonly signal: AbortSignal;
  /** Where the call's progress goes (the turn's event stream). */
  readonly emit: (event: RuntimeEvent) => void;
  /** The store's batches, where a runtime tool records the work it starts (nothing else of the store). */
  readonly store: Pick<SessionStore, 'createBatch' | 'listBatches' | 'getBatch' | 'getFullResult'>;
  /** The real names of the tools the turn offers: what its agent or grants withhold is not among them. */
  readonly offeredNames: readonly string[];
  /** The turn's task mode. */
  readonly mode: TaskMode;
  /** True when the turn is a subagent leaf's. */
  readonly inLeaf: boolean;
  /** How many characters of a result the model is shown (see `ToolContext.resultChars`). */
  readonly resultChars?: number;
}

/**
 * A tool the runtime itself answers (e.g. `subagent_run`): offered every turn, screened by the agent's
 * tool list, the deny-list, the task mode and the run's grants, refused by its own preflight before
 * anything starts, and never put to a person (what it starts asks as usual).
 */
export interface RuntimeTool {
  /** Must be portable as declared; its name is one of the seam's reserved names. */
  readonly definition: ToolDefinition;
  /**
   * True when the work the call starts runs under the calling turn's task mode (a plan-mode turn's
   * batch runs plan-mode leaves): plan mode then lets the call itself through.
   */
  readonly keepsTaskMode?: boolean;
  /** What the call would be refused for, before anything starts; undefined refuses nothing. */
  preflight?(
    args: JsonObject,
    ctx: RuntimeToolContext,
  ): ToolResult | undefined | Promise<ToolResult | undefined>;
  /** Runs the call; failures the model should read come back as `isError` results. */
  run(args: JsonObject, ctx: RuntimeToolContext): Promise<ToolResult>;
  /**
   * Takes over a call whose process died while it ran (e.g. a batch with leaves still to do), when
   * the work can be picked up where it stopped. May record the call's result itself; undefined means
   * it cannot be resumed (the call is then reported as lost).
   */
  resume?(ctx: RuntimeToolContext): Promise<ToolResult | undefined>;
}

/** Each runtime tool definition's wire form and the parameters it was made from: a provider keeps a tool's encoded form by its object. */
const wireForms = new WeakMap<ToolDefinition, { readonly wire: WireTool; readonly from: unknown }>();

/** A runtime tool as a request carries it (the same object for the same definition, request after request). */
export function runtimeWireTool(tool: RuntimeTool): WireTool {
  const definition = tool.definition;
  const { name, description, parameters } = definition;
  const kept = wireForms.get(definition);
  // A definition changed in place since (a host's own runtime tool) gets a new form.
  if (
    kept !== undefined &&
    kept.wire.name === name &&
    kept.wire.description === description &&
    kept.from === parameters
  )
    return kept.wire;
  const wire: WireTool = {
    name,
    description,
    parameters: (parameters ?? { type: 'object', properties: {} }) as WireTool['parameters'],
  };
  wireForms.set(definition, { wire, from: parameters });
  return wire;
}
