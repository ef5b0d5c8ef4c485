import type { JsonObject } from '../../core/json.js';
import { nestsTooDeep, tooDeepWords } from '../../core/json-depth.js';
import type { AssistantToolCall } from '../../core/model.js';
import type { ToolCallRecord } from '../../core/session-store.js';
import { headOf } from '../../core/text-cut.js';
import type { ToolResult } from '../../core/tool.js';
import {
  decodeLiftedArguments,
  describeLiftFailures,
  fillOmittedNulls,
  restoreDeclaredKeys,
} from '../../seam/index.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import { travelName } from '../turn/wire-history.js';
import { callDigest } from './call-digest.js';
import type { CallTarget } from './call-target.js';
import { readArguments } from './read-arguments.js';
import { unknownTarget } from './targets/served-targets.js';
import { resolveTarget } from './targets/target-sources.js';

/** A call the model asked for, read and resolved, before any gate. */
export interface ReadCall {
  readonly id: string;
  readonly wireName: string;
  /** The real name (the name as sent when no tool has it). */
  readonly tool: string;
  /** What the name resolved to: the one place the call path learns about its tool. */
  readonly target: CallTarget;
  /**
   * The arguments as the conversation keeps them: the model's own text, or, when a slip was recovered
   * (a code fence, an object encoded twice), the object it stood for as plain JSON text, so every
   * provider reads the call back with the arguments it ran with (not as an empty object).
   */
  readonly rawArguments: string;
  /** The provider's token for this call, sent back with it (see `AssistantToolCall.signature`). */
  readonly signature?: string;
  /** Decoded arguments (lifted JSON text turned back into values); absent when unreadable. */
  readonly args?: JsonObject;
  /** True when `args` is exactly what `rawArguments` reads as: the store keeps the text alone. */
  readonly argsAsRaw?: boolean;
  /** Why the arguments could not be read: the call is answered with this and not run. */
  readonly unreadable?: ToolResult;
  readonly digest: string;
}

/** A read call with its stored record. */
export interface PlannedCall extends ReadCall {
  readonly record: ToolCallRecord;
}

/**
 * Reads a model's call: resolves its name to its target once, parses its arguments once and decodes
 * lifted JSON text. Arguments longer than the turn's `argumentChars` are neither read nor kept: only
 * their start is, with an ellipsis (never readable as arguments, so the call is never run from the
 * record either). `resolved` is the call's target when the caller resolved its name already.
 */
export function readCall(
  env: TurnEnvironment,
  call: AssistantToolCall,
  stoppedByLength: boolean,
  resolved?: CallTarget,
): ReadCall {
  if (call.name.trim() === '') return nameless(call);
  // `resolved`: a caller outside a turn that decides itself which tools its names reach (the MCP surface)
  const target = resolved ?? resolveTarget(env, call.name);
  const tool = target.name;
  const argumentChars = env.limits.argumentChars;
  if (call.arguments.length > argumentChars) return tooLong(env, target, call, argumentChars);
  const read = readArguments(call.arguments);
  const base = {
    id: call.id,
    // kept as the request offered it, whichever name the model used (a real name with `/` would be
    // refused by Bedrock and Gemini when the conversation is sent again)
    wireName: travelName(env.surface, tool),
    tool,
    target,
    rawArguments: read.ok && read.recovered ? JSON.stringify(read.args) : call.arguments,
    ...(call.signature === undefined ? {} : { signature: call.signature }),
  };
  if (!read.ok) {
    const why = read.tooDeep
      ? TOO_DEEP
      : stoppedByLength
        ? 'the reply was cut off at the output limit before the arguments were complete. Send the call again with shorter arguments (split large content across several calls).'
        : `its arguments were not valid JSON (${read.detail}). Send the call again with one complete JSON object as its arguments.`;
    return {
      ...base,
      digest: callDigest(tool, call.arguments),
      unreadable: unreadable(`${tool} was not run: ${why}`),
    };
  }
  const offered = target.offered;
  // Keys renamed for the wire get their declared names back first: lifted paths use the declared ones.
  const decoded = offered
    ? decodeLiftedArguments(restoreDeclaredKeys(read.args, offered.renamed), offered.lifted)
    : { ok: true as const, arguments: read.args };
  if (!decoded.ok) {
    const why = `${tool}: ${describeLiftFailures(decoded.failures)}`;
    return { ...base, args: read.args, digest: callDigest(tool, read.args), unreadable: unreadable(why) };
  }
  // A required argument that takes null is offered as optional (no provider carries null): left out, it is null.
  const args = offered
    ? fillOmittedNulls(offered.definition.parameters, decoded.arguments)
    : decoded.arguments;
  // Lifted JSON text decoded into values can nest past the limit the model's own JSON was held to.
  if (args !== read.args && nestsTooDeep(args)) {
    const why = `${tool} was not run: ${TOO_DEEP}`;
    return { ...base, digest: callDigest(tool, read.args), unreadable: unreadable(why) };
  }
  // Nothing decoded, renamed or filled in: the arguments are what the kept text reads as.
  const argsAsRaw = args === read.args && base.rawArguments.trim() !== '';
  return { ...base, args, argsAsRaw, digest: callDigest(tool, args) };
}

/** How much of arguments too long to keep the conversation keeps: enough to see what the call was. */
const KEPT_OF_LONG_ARGUMENTS = 2_000;

/** A call whose arguments are longer than a call may carry: answered, never read, run or stored whole. */
function tooLong(env: TurnEnvironment, target: CallTarget, call: AssistantToolCall, limit: number): ReadCall {
  const tool = target.name;
  const kept = `${headOf(call.arguments, KEPT_OF_LONG_ARGUMENTS)}…`;
  const size = call.arguments.length.toLocaleString('en-US');
  const most = limit.toLocaleString('en-US');
  return {
    id: call.id,
    wireName: travelName(env.surface, tool),
    tool,
    target,
    rawArguments: kept,
    ...(call.signature === undefined ? {} : { signature: call.signature }),
    digest: callDigest(tool, kept),
    unreadable: unreadable(
      `${tool} was not run: its arguments are ${size} characters long, past the ${most} one call may carry, so they were not read or kept. ` +
        `Send the content in parts of under ${most} characters over several calls, or point the tool at where it is (a file path, a URL) instead of including it.`,
    ),
  };
}

/** The answer to a call whose arguments could not be read: it is not run. */
function unreadable(why: string): ToolResult {
  return { content: `Error: ${why}`, isError: true, notRun: 'unreadable_arguments' };
}

/** Why a call whose arguments nest too deep was not run, and what to send instead. */
const TOO_DEEP = `its arguments hold ${tooDeepWords()}. Send the call again with flatter arguments (a long chain of nested lists or objects can usually be a list of items, or text).`;

/**
 * The name a call without one is recorded and replayed under: the store keeps a name for every call,
 * and the provider reads it back in the history, so it must be a valid wire name.
 */
const NAMELESS = 'unnamed_tool';

/** A call the model sent without a tool name: answered, never run. */
function nameless(call: AssistantToolCall): ReadCall {
  return {
    id: call.id,
    wireName: NAMELESS,
    tool: NAMELESS,
    target: unknownTarget(NAMELESS),
    rawArguments: call.arguments,
    digest: callDigest(NAMELESS, call.arguments),
    unreadable: unreadable(
      'a tool call came without a tool name, so nothing was run. Call a tool by one of the names offered.',
    ),
  };
}
