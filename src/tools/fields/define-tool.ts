import { ToolseamError } from '../../core/errors.js';
import { isPlainObject, type JsonObject } from '../../core/json.js';
import type { RiskLevel, ToolContext, ToolDefinition, ToolGroup, ToolResult } from '../../core/tool.js';
import {
  type ArgumentProblem,
  describeValue,
  renderProblems,
  ToolArgumentsError,
} from '../arguments/argument-problem.js';
import type { ArgsOf, Fields } from './field.js';
import { objectReader } from './field-reader.js';
import { type GrantScopeOption, grantScopeRule } from './grant-scope-option.js';
import { offeredSchema } from './offered-schema.js';
import { INVALID } from './scalar-readers.js';
import { ToolDefinitionError } from './tool-definition-error.js';

/** What a tool declares it refuses: a reason (and hints), or text. */
export type Refusal =
  | string
  | { readonly message: string; readonly hints?: readonly string[]; readonly data?: unknown };

/** What a handler returns: the text the model reads, or a whole result. */
export type ToolOutput = string | ToolResult;

/** Everything one in-process tool declares. */
export interface ToolSpec<F extends Fields> {
  readonly name: string;
  /** What the tool does, as the model reads it (never empty). */
  readonly description: string;
  /** Defaults to `caution`; a `safe` tool never asks. */
  readonly risk?: RiskLevel;
  /** Asks before it runs; defaults to true unless the tool is `safe`. */
  readonly asks?: boolean;
  /** Always offered with its full schema. */
  readonly core?: boolean;
  /** Changes nothing (no file, memory, task or message): allowed in plan mode. A `safe` risk alone is not. */
  readonly readOnly?: boolean;
  readonly group?: ToolGroup;
  /** The field through which a long result is read in parts, when there is one (see ToolDefinition). */
  readonly pagesBy?: string;
  /** The declared inputs; leave out for a tool that takes none. */
  readonly fields?: F;
  /** Which later calls an "always" answer covers (see `GrantScopeOption`); default: the same arguments only. */
  readonly grantScope?: GrantScopeOption<keyof F & string>;
  /** What the handler refuses whatever anyone answers; run before asking and again before the handler. */
  readonly preflight?: (
    args: ArgsOf<F>,
    ctx: ToolContext,
  ) => Refusal | undefined | Promise<Refusal | undefined>;
  /** Does the work, with the validated arguments under their declared names. */
  readonly handler: (args: ArgsOf<F>, ctx: ToolContext) => ToolOutput | Promise<ToolOutput>;
  /**
   * How long a call may run by the tool's own account, in milliseconds (a number, or one read from the
   * call's arguments); `null` for a tool that must not be cut (it waits for a person). Left out, the
   * runtime's deadline for tools applies (60 s unless the config says otherwise).
   */
  readonly timeLimitMs?: number | null | ((args: ArgsOf<F>) => number);
}

/** How a call's arguments read: the handler's arguments, or what is wrong with them. */
export type ArgumentReading<A> =
  | { readonly ok: true; readonly args: A }
  | { readonly ok: false; readonly problems: readonly ArgumentProblem[] };

/** A defined in-process tool: its definition, its validator and its handler, from one source. */
export interface InProcessTool<A = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly risk: RiskLevel;
  readonly asks: boolean;
  readonly fields: Fields;
  /** The schema the model is offered, generated from the field specs. */
  readonly parameters: JsonObject;
  /** The tool as a provider lists it. */
  readonly definition: ToolDefinition;
  /** Validates raw arguments (absorbing spellings, JSON text, words for booleans, numeric text). */
  read(raw: unknown): ArgumentReading<A>;
  /** Like `read`, but throws ToolArgumentsError when the arguments do not fit. */
  parse(raw: unknown): A;
  /** What a call would be refused before anyone is asked: its arguments, then the tool's declared refusal. */
  check(raw: unknown, ctx: ToolContext): Promise<ToolResult | undefined>;
  /** Runs a call: validation, the declared refusal, then the handler; failures come back as `isError`. */
  run(raw: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** The call's time limit by the tool's own account (see `ToolSpec.timeLimitMs`); undefined when it sets none. */
  timeLimitMs?(raw: unknown): number | null | undefined;
}

const RISKS: readonly RiskLevel[] = ['safe', 'caution', 'destructive'];

/** The result a call with unfit arguments gets: one line per problem, the structured list on `data`. */
export function invalidArgumentsResult(tool: string, problems: readonly ArgumentProblem[]): ToolResult {
  return {
    content: renderProblems(problems),
    isError: true,
    hints: [`Nothing was run. Call ${tool} again with these arguments fixed.`],
    notRun: 'refused_by_tool',
    data: { code: 'invalid_arguments', problems },
  };
}

/** The result a declared refusal becomes. */
export function refusalResult(refusal: Refusal): ToolResult {
  if (typeof refusal === 'string') return { content: refusal, isError: true, notRun: 'refused_by_tool' };
  return {
    content: refusal.message,
    isError: true,
    notRun: 'refused_by_tool',
    ...(refusal.hints === undefined ? {} : { hints: refusal.hints }),
    ...(refusal.data === undefined ? {} : { data: refusal.data }),
  };
}

/** What the handler returned, as a result; anything but text or a result is told as the tool's bug. */
function outputResult(tool: string, output: unknown): ToolResult {
  if (typeof output === 'string') return { content: output, isError: false };
  if (isPlainObject(output) && typeof output.content === 'string') return output as unknown as ToolResult;
  const what = isPlainObject(output) ? 'an object without text "content"' : describeValue(output);
  return {
    content: `${tool} failed: its handler returned ${what}; a handler returns text, or {content, isError}.`,
    isError: true,
    data: { code: 'bad_handler_output' },
  };
}

function failureResult(tool: string, error: unknown): ToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ToolseamError ? error.code : 'tool_failed';
  return { content: `${tool} failed: ${message}`, isError: true, data: { code } };
}

function checkSpec(spec: {
  readonly name: unknown;
  readonly description: unknown;
  readonly risk?: RiskLevel | undefined;
  readonly asks?: boolean | undefined;
  readonly preflight?: unknown;
  readonly readOnly?: boolean | undefined;
  readonly handler: unknown;
  readonly timeLimitMs?: unknown;
}): void {
  if (!isPlainObject(spec)) {
    const problem = 'defineTool takes one object: { name, description, fields, handler }';
    throw new ToolDefinitionError('(nameless tool)', '', problem);
  }
  const name = typeof spec.name === 'string' ? spec.name : '';
  if (name.trim() === '' || /\s/.test(name)) {
    throw new ToolDefinitionError(
      name || '(nameless tool)',
      '',
      'a tool name is non-empty and has no spaces',
    );
  }
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    throw new ToolDefinitionError(name, '', 'a tool describes itself (the description is empty)');
  }
  if (spec.risk !== undefined && !RISKS.includes(spec.risk)) {
    throw new ToolDefinitionError(name, '', `risk is one of ${RISKS.join(', ')}`);
  }
  if (spec.risk === 'safe' && spec.asks === true) {
    throw new ToolDefinitionError(name, '', 'a safe tool never asks before it runs');
  }
  if (spec.readOnly === true && spec.risk === 'destructive') {
    throw new ToolDefinitionError(name, '', 'a read-only tool changes nothing, so it cannot be destructive');
  }
  if (typeof spec.handler !== 'function') throw new ToolDefinitionError(name, '', 'the handler is missing');
  const limit = spec.timeLimitMs;
  if (
    limit !== undefined &&
    limit !== null &&
    typeof limit !== 'function' &&
    !(typeof limit === 'number' && Number.isFinite(limit) && limit > 0)
  ) {
    throw new ToolDefinitionError(
      name,
      '',
      'timeLimitMs is a number of milliseconds above 0, a function of the arguments giving one, or null for no limit',
    );
  }
  if (spec.preflight !== undefined && typeof spec.preflight !== 'function') {
    throw new ToolDefinitionError(
      name,
      '',
      'preflight is a function of the arguments that returns a refusal or nothing',
    );
  }
}

/** Defines an in-process tool; throws ToolDefinitionError when the definition cannot work. */
export function defineTool<const F extends Fields = Record<never, never>>(
  spec: ToolSpec<F>,
): InProcessTool<ArgsOf<F>> {
  checkSpec(spec);
  type A = ArgsOf<F>;
  const fields: Fields = spec.fields ?? {};
  if (spec.pagesBy !== undefined && !Object.hasOwn(fields, spec.pagesBy)) {
    throw new ToolDefinitionError(
      spec.name,
      '',
      `pagesBy names ${spec.pagesBy}, which is not one of its fields`,
    );
  }
  const site = { tool: spec.name, path: '' };
  // Made now to check the fields (a definition that cannot work fails here), then let go: a reader
  // holds ~2.7 KB, and most tools of a large catalog are never called. It is made again at the first call.
  objectReader(fields, site);
  let reader: ReturnType<typeof objectReader> | undefined;
  const risk = spec.risk ?? 'caution';
  const asks = spec.asks ?? risk !== 'safe';
  const parameters = offeredSchema(fields);
  const grantScope = grantScopeRule(spec.name, spec.grantScope, fields);
  const definition: ToolDefinition = {
    name: spec.name,
    description: spec.description,
    parameters,
    risk,
    requiresApproval: asks,
    keySpellings: true,
    ...(spec.core === undefined ? {} : { core: spec.core }),
    ...(spec.readOnly === undefined ? {} : { readOnly: spec.readOnly }),
    ...(spec.group === undefined ? {} : { group: spec.group }),
    ...(grantScope === undefined ? {} : { grantScope }),
    ...(spec.pagesBy === undefined ? {} : { pagesBy: spec.pagesBy }),
  };

  // A call's arguments reach the tool up to four times (its limit and preflight, then its limit and run):
  // they are read once per arguments object, which nothing changes once the model has sent it.
  let readings: WeakMap<object, ArgumentReading<A>> | undefined;
  const read = (raw: unknown): ArgumentReading<A> => {
    const key = typeof raw === 'object' && raw !== null ? raw : undefined;
    const known = key && readings?.get(key);
    if (known) return known;
    const problems: ArgumentProblem[] = [];
    reader ??= objectReader(fields, site);
    const value = reader(raw ?? {}, '', problems);
    const reading: ArgumentReading<A> =
      value === INVALID || problems.length > 0 ? { ok: false, problems } : { ok: true, args: value as A };
    if (key) {
      readings ??= new WeakMap();
      readings.set(key, reading);
    }
    return reading;
  };
  const refusalOf = async (args: A, ctx: ToolContext): Promise<ToolResult | undefined> => {
    const refusal = spec.preflight ? await spec.preflight(args, ctx) : undefined;
    return refusal === undefined ? undefined : refusalResult(refusal);
  };

  return {
    name: spec.name,
    description: spec.description,
    risk,
    asks,
    fields,
    parameters,
    definition,
    read,
    parse(raw) {
      const reading = read(raw);
      if (!reading.ok) throw new ToolArgumentsError(spec.name, reading.problems);
      return reading.args;
    },
    async check(raw, ctx) {
      const reading = read(raw);
      if (!reading.ok) return invalidArgumentsResult(spec.name, reading.problems);
      return refusalOf(reading.args, ctx);
    },
    timeLimitMs(raw) {
      const limit = spec.timeLimitMs;
      if (typeof limit !== 'function') return limit;
      const reading = read(raw);
      return reading.ok ? limit(reading.args) : undefined;
    },
    async run(raw, ctx) {
      const reading = read(raw);
      if (!reading.ok) return invalidArgumentsResult(spec.name, reading.problems);
      try {
        // Asked again after its preflight: a person's yes may come hours later, when the answer differs.
        const refused = await refusalOf(reading.args, ctx);
        if (refused) return refused;
        return outputResult(spec.name, await spec.handler(reading.args, ctx));
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        return failureResult(spec.name, error);
      }
    },
  };
}
