/** Base of every error toolseam raises on purpose; `code` is stable and machine-readable. */
export class ToolseamError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Input a user gave us (a file, a flag, a config) that cannot be used; the message says what to do. */
export class InputError extends ToolseamError {
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super('bad_input', message);
  }
}

/** A model provider refused or failed a request. */
export class ProviderError extends ToolseamError {
  readonly provider: string;
  /** HTTP status, or undefined for a connection failure / timeout. */
  readonly status: number | undefined;
  /** The provider's own error code or type, when it gave one. */
  readonly providerCode: string | undefined;
  readonly retryable: boolean;
  readonly requestId: string | undefined;
  /** The response body exactly as received ('' when none). */
  readonly rawBody: string;
  /** How long the provider asked us to wait before trying again (`retry-after`, Gemini's `RetryInfo`, a spent limit's reset), when it said. */
  readonly retryAfterMs?: number | undefined;
  /** How many attempts were made before toolseam gave up retrying (its message then says what to do); undefined when it did not retry. */
  readonly attempts?: number | undefined;

  constructor(fields: {
    provider: string;
    status: number | undefined;
    message: string;
    providerCode?: string | undefined;
    retryable: boolean;
    requestId?: string | undefined;
    rawBody?: string;
    retryAfterMs?: number | undefined;
    attempts?: number | undefined;
    cause?: unknown;
  }) {
    super('provider_error', fields.message, { cause: fields.cause });
    this.provider = fields.provider;
    this.status = fields.status;
    this.providerCode = fields.providerCode;
    this.retryable = fields.retryable;
    this.requestId = fields.requestId;
    this.rawBody = fields.rawBody ?? '';
    this.retryAfterMs = fields.retryAfterMs;
    this.attempts = fields.attempts;
  }
}

/** One tool named in a provider's rejection. */
export interface RejectedTool {
  /** The tool's real name. */
  readonly name: string;
  /** False for tools the platform cannot run without. */
  readonly canTurnOff: boolean;
}

/** The provider rejected the definition of one or more tools this request sent; never retried. */
export class ToolSchemaRejected extends ToolseamError {
  readonly tools: readonly RejectedTool[];
  readonly provider: string;
  /** What the provider said of the definition, in one bounded line (undefined when it said nothing). */
  readonly said: string | undefined;
  /**
   * True when the provider itself points at every named tool (its name, a property it declares, its
   * place in the request in the provider's path form), not only a loose mention: only then may the
   * tools be quarantined and the request sent again without them.
   */
  readonly attributed: boolean;

  constructor(
    tools: readonly RejectedTool[],
    provider: string,
    options: { cause?: unknown; said?: string | undefined; attributed?: boolean } = {},
  ) {
    super(
      'tool_schema_rejected',
      rejectionSentence(tools, options.said),
      'cause' in options ? { cause: options.cause } : undefined,
    );
    this.tools = tools;
    this.provider = provider;
    this.said = options.said;
    this.attributed = options.attributed ?? false;
  }

  /** True when every named tool can be switched off to keep going. */
  get canTurnOff(): boolean {
    return this.tools.every((t) => t.canTurnOff);
  }
}

/** Names quoted and listed for a sentence: `"a"`, `"a" and "b"`, `"a", "b" and "c"`. */
export function quotedList(names: readonly string[]): string {
  const quoted = names.map((n) => JSON.stringify(n));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

/**
 * The sentence a person reads when a provider rejected tool definitions; `said` (the provider's own words)
 * is quoted, since it is what tells the tool's author what to fix.
 */
export function rejectionSentence(tools: readonly RejectedTool[], said?: string): string {
  const names = tools.map((t) => t.name);
  const several = names.length > 1;
  const what = `the ${quotedList(names)} tool${several ? 's' : ''}`;
  const quoted = said ? ` (${said})` : '';
  let text =
    `This turn could not run: the model provider refused the definition${several ? 's' : ''} toolseam sent for ${what}${quoted}. ` +
    `That is a bug in how ${several ? 'those tools are' : 'that tool is'} defined, not something you did.`;
  if (tools.length > 0 && tools.every((t) => t.canTurnOff)) {
    // a stored switch, read at the next turn's start by every process: no config edit, no restart
    const command = `toolseam tools ${names.map((n) => `--off ${n}`).join(' ')}`;
    text +=
      ` To keep going, switch ${several ? 'those tools' : 'that tool'} off on the Tools page (or run \`${command}\`),` +
      ' then send your message again.';
  }
  return text;
}

/** A wait as a person reads it, in whole seconds rounded up (at least 1): `90500` → `91 s`. */
export function waitWords(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}
