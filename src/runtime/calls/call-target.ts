import type { JsonObject } from '../../core/json.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../../core/tool.js';
import type { OfferedTool } from '../../seam/index.js';
import { KEPT_RESULT_CHARS, keepsResults } from '../context/result-by-reference.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import type { Refusal } from './refusals.js';

/** One call as its target's steps see it: the turn it belongs to, and its id. */
export interface TargetCall {
  readonly env: TurnEnvironment;
  readonly state: TurnState;
  readonly id: string;
}

/**
 * What a call's tool name resolved to, once, when its reply was read: all the call path asks of the
 * tool, whichever source answers it (the registry's served tools, the meta-tools, the runtime's own).
 * Every source's `invoke` and `preflight` go to a `ToolProvider`'s (the registry's route to one has the
 * same two), handed {@link toolContextOf} the call.
 */
export interface CallTarget {
  /** The real name (the name as sent when no tool has it). */
  readonly name: string;
  /** The tool as this turn knows it; undefined when no tool has the name (the unknown-tool gate refuses it). */
  readonly definition: ToolDefinition | undefined;
  /** How the surface offers it (declared schema, renamed keys, lifted paths); undefined when it is not on the surface. */
  readonly offered: OfferedTool | undefined;
  /** False for a target only the agent's tool list screens (the meta-tools, which read the catalog and nothing else). */
  readonly screened: boolean;
  /** True when the work the call starts keeps the turn's task mode (see `RuntimeTool.keepsTaskMode`). */
  readonly keepsTaskMode: boolean;
  /** True when a call needs a person's yes, unless the approval policy or a standing grant gives it. */
  readonly asks: boolean;
  /** The refusal for a tool withdrawn since the turn began; undefined while it is still there. */
  withdrawn(env: TurnEnvironment): Refusal | undefined;
  /**
   * The tool's own refusal, checked right after the gates and before the call counts against the turn's
   * bounds: a runtime tool's preflight (such a tool never asks, so nothing later would stop it in time).
   */
  screen?(args: JsonObject, call: TargetCall): Promise<ToolResult | undefined>;
  /** The tool's refusal before a person is asked about the call; undefined refuses nothing. */
  preflight?(args: JsonObject, call: TargetCall): Promise<ToolResult | undefined>;
  /** Runs the call; failures the model should read come back as `isError` results. */
  invoke(args: JsonObject, call: TargetCall): Promise<ToolResult>;
  /** Takes over a call whose process died while it ran (see `RuntimeTool.resume`). */
  resume?(call: TargetCall): Promise<ToolResult | undefined>;
}

/** One kind of tool a turn's calls reach: it makes the target of each name it answers. */
export interface TargetSource {
  /** The target of real name `name`, or undefined when this source has no tool by that name. */
  targetOf(name: string, env: TurnEnvironment): CallTarget | undefined;
}

/** What every provider's invoke or preflight is handed for a call: the same context, whoever serves it. */
export function toolContextOf({ env, state, id }: TargetCall): ToolContext {
  return {
    sessionId: env.sessionId,
    callId: id,
    signal: env.signal,
    turnState: state.scratch,
    workspace: env.workspace,
    secrets: env.secrets,
    resultChars: env.limits.resultChars,
    ...(keepsResults(env) ? { keptChars: KEPT_RESULT_CHARS } : {}),
    ...(env.leaf?.writable ? { writable: env.leaf.writable } : {}),
    ...(env.leaf?.offLimits ? { offLimits: env.leaf.offLimits } : {}),
  };
}
