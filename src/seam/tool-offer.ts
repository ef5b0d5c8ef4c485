import type { JsonSchema } from '../core/json.js';
import { type Logger, silentLogger } from '../core/logger.js';
import type { WireTool } from '../core/model.js';
import type { ToolDefinition } from '../core/tool.js';
import { type ConformResult, conformParameters, type Verdict } from './conform-parameters.js';
import { isCosmeticRepair } from './cosmetic-repair.js';
import { derivedDescription, hasDescription, hasText, wireDescription } from './describe-tool.js';
import type { LiftedArgument } from './lifted-argument.js';
import type { RenamedKey } from './renamed-keys.js';
import type { SchemaIssue } from './schema-issue.js';
import { adviceFor, describeIssues, describeOrigin, logOnce, type ToolOrigin } from './seam-log.js';
import { wireName } from './wire-name.js';

/** A tool as models are offered it. */
export interface OfferedTool {
  readonly kind: 'offered';
  readonly definition: ToolDefinition;
  /** The real name: the tool's identity everywhere but on the wire. */
  readonly name: string;
  /** The model-safe name requests carry (see `wireName`). */
  readonly wireName: string;
  /** The whole description: as declared, or written from the name and inputs when there was none. */
  readonly description: string;
  /** True when `description` was written by the seam. */
  readonly descriptionDerived: boolean;
  /** `description` cut to the wire limit (1,024 characters). */
  readonly wireDescription: string;
  /** The offered schema (the declared object itself when portable). */
  readonly parameters: JsonSchema;
  readonly verdict: Exclude<Verdict, 'excluded'>;
  /** What the seam repaired or lifted (empty when portable). */
  readonly repairs: readonly SchemaIssue[];
  /** Arguments carried as JSON text: decode them with `decodeLiftedArguments` before checking a call. */
  readonly lifted: readonly LiftedArgument[];
  /** Top-level arguments offered under another key: restore them with `restoreDeclaredKeys` first. */
  readonly renamed: readonly RenamedKey[];
  readonly origin: ToolOrigin;
  /** Name, description and parameters exactly as a request carries them. */
  readonly wire: WireTool;
}

/** Why a tool is left out of the offer. */
export type ExclusionReason = 'no_name' | 'no_portable_form' | 'name_collision' | 'shadows_runtime_tool';

/** A tool models are not offered, and why. */
export interface ExcludedTool {
  readonly kind: 'excluded';
  readonly definition: ToolDefinition;
  readonly name: string;
  readonly reason: ExclusionReason;
  /** The reason in plain words, for the Tools page and the CLI. */
  readonly message: string;
  /** The schema's defects (blocking ones marked) or the naming problem. */
  readonly issues: readonly SchemaIssue[];
  readonly origin: ToolOrigin;
}

/** Where tools come from, and where the seam writes its one line per tool. */
export interface OfferOptions extends ToolOrigin {
  readonly logger?: Logger;
}

/** The tools one provider offers, and those it cannot. */
export interface ToolOffer {
  readonly offered: readonly OfferedTool[];
  readonly excluded: readonly ExcludedTool[];
}

/**
 * Passes one tool through the seam: a nameless tool or one whose schema nothing can carry is left
 * out; otherwise it is offered with a portable schema, a wire name and a non-empty description.
 * Logs one line per tool per process when anything was changed or left out.
 */
export function offerTool(
  definition: ToolDefinition,
  options: OfferOptions = {},
): OfferedTool | ExcludedTool {
  return offerWith(definition, options, conformParameters);
}

/** `offerTool` over a provider's list. */
export function offerTools(definitions: readonly ToolDefinition[], options: OfferOptions = {}): ToolOffer {
  const offered: OfferedTool[] = [];
  const excluded: ExcludedTool[] = [];
  for (let i = 0; i < definitions.length; i += 1) {
    const item = offerTool(definitions[i] as ToolDefinition, options);
    if (item.kind === 'offered') offered.push(item);
    else excluded.push(item);
  }
  return { offered, excluded };
}

/** `offerTool` with the conform step given (the per-turn seam passes a cached one). */
export function offerWith(
  definition: ToolDefinition,
  options: OfferOptions,
  conform: (declared: unknown) => ConformResult,
): OfferedTool | ExcludedTool {
  const origin: ToolOrigin = {
    provider: options.provider ?? definition.provider,
    app: options.app ?? definition.app,
  };
  const logger = options.logger ?? silentLogger;
  const name = definition.name;
  if (!hasText(name)) return nameless(definition, origin, logger);
  const result = conform(definition.parameters);
  if (result.parameters === undefined || result.verdict === 'excluded') {
    return unportable(definition, origin, logger, result.issues);
  }
  const declared = definition.description;
  const derived = !hasDescription(declared);
  const description = derived ? derivedDescription(name, definition.parameters) : declared;
  const wire = {
    name: wireName(name),
    description: wireDescription(description),
    parameters: result.parameters,
  };
  if ((derived || result.issues.length > 0) && logger !== silentLogger)
    logOffered(logger, origin, name, result, derived);
  return {
    kind: 'offered',
    definition,
    name,
    wireName: wire.name,
    description,
    descriptionDerived: derived,
    wireDescription: wire.description,
    parameters: result.parameters,
    verdict: result.verdict,
    repairs: result.issues,
    lifted: result.lifted,
    renamed: result.renamed,
    origin,
    wire,
  };
}

function nameless(definition: ToolDefinition, origin: ToolOrigin, logger: Logger): ExcludedTool {
  const message = `${describeOrigin(origin)} offers a tool with no name, so models are not offered it; its author has to name it.`;
  logOnce(logger, origin, '', 'no name', message, { reason: 'no_name' });
  const issues: SchemaIssue[] = [
    { rule: 'name_missing', path: '', detail: 'the tool has no name', action: 'blocking' },
  ];
  return { kind: 'excluded', definition, name: '', reason: 'no_name', message, issues, origin };
}

function unportable(
  definition: ToolDefinition,
  origin: ToolOrigin,
  logger: Logger,
  issues: readonly SchemaIssue[],
): ExcludedTool {
  const name = definition.name;
  const blocking = issues.filter((i) => i.action === 'blocking');
  const message = `its parameter schema has no portable form: ${describeIssues(blocking)}`;
  if (logger !== silentLogger) {
    const line =
      `${describeOrigin(origin)}: tool ${JSON.stringify(name)} is NOT offered to models, because ${message}. ` +
      `To offer it, its author should ${adviceFor(blocking)}.`;
    logOnce(logger, origin, name, `excluded ${issues.length}`, line, { reason: 'no_portable_form', issues });
  }
  return { kind: 'excluded', definition, name, reason: 'no_portable_form', message, issues, origin };
}

function logOffered(
  logger: Logger,
  origin: ToolOrigin,
  name: string,
  result: ConformResult,
  derived: boolean,
): void {
  const parts: string[] = [];
  if (result.verdict === 'repaired') parts.push('is offered to models with a repaired schema');
  if (result.verdict === 'lifted') {
    const paths = result.lifted.map((l) => `\`${l.path}\``).join(', ');
    parts.push(`is offered to models with ${paths} as JSON text`);
  }
  if (derived) parts.push('came with no description, so models see one written from its name and inputs');
  const defects = result.issues.length > 0 ? ` (${describeIssues(result.issues)})` : '';
  const advice = [
    result.issues.length > 0 ? adviceFor(result.issues) : '',
    derived ? 'describe the tool' : '',
  ]
    .filter((a) => a !== '')
    .join('; ');
  const line = `${describeOrigin(origin)}: tool ${JSON.stringify(name)} ${parts.join(', and ')}${defects}. Its author should ${advice}.`;
  const unseen = !derived && result.issues.every(isCosmeticRepair);
  const fields = { verdict: result.verdict, descriptionDerived: derived, issues: result.issues };
  const key = `${result.verdict} ${result.issues.length} ${derived}`;
  logOnce(logger, origin, name, key, line, fields, unseen ? 'debug' : 'info');
}
