import type { JsonObject } from './json.js';

/** How much harm a tool can do; `safe` tools never ask before they run. */
export type RiskLevel = 'safe' | 'caution' | 'destructive';

/** Where a tool belongs in the deferred catalog: the platform's own groups come first. */
export interface ToolGroup {
  /** Group key as shown in the catalog, e.g. `files`, `mcp/github`, an app name. */
  readonly key: string;
  /** True for the platform's own groups (built-ins and what ships with the runtime). */
  readonly own: boolean;
  /** One line saying what the group is for ("" when nothing is known). */
  readonly purpose: string;
}

/** A tool as its provider declares it. The real `name` is its identity everywhere but on the wire. */
export interface ToolDefinition {
  readonly name: string;
  /** As declared; may be empty (the seam writes one for the wire). */
  readonly description: string;
  /** The DECLARED input schema, untouched; `undefined` means the tool takes no arguments. */
  readonly parameters: unknown;
  readonly risk: RiskLevel;
  /** Asks before it runs (a `safe` tool never does). */
  readonly requiresApproval: boolean;
  /** Always offered with its full schema, whatever the ranking says. */
  readonly core?: boolean;
  /** Only read-only work: allowed in `plan` mode. */
  readonly readOnly?: boolean;
  /** The tool provider that serves it (set by the registry when missing). */
  readonly provider?: string;
  /** The app the provider belongs to, for log lines and refusals. */
  readonly app?: string;
  /** Catalog group (set by the registry when missing). */
  readonly group?: ToolGroup;
  /**
   * Its provider also reads each declared key in camelCase, PascalCase and snake_case, and in any letter
   * case with or without separators (defined in-process tools do), so the runtime's required-argument
   * check counts any of those spellings as given.
   */
  readonly keySpellings?: boolean;
  /**
   * Which later calls an "always" answer for this tool covers (see `GrantScopeRule`); absent: only calls
   * with exactly the same arguments. Only a tool's own code declares it (an MCP server cannot).
   */
  readonly grantScope?: GrantScopeRule;
  /**
   * The argument through which the tool reads a long result in parts (read_file's `offset`). Such a tool
   * is asked again for the rest, since its source outlives the call and may change (a file being edited):
   * its results stay within the runtime's bound and say where to go on, and the runtime's cut, should one
   * pass it, names this argument. Without it, a result over the bound is kept whole and the model reads
   * the rest with `tool_result_read`.
   */
  readonly pagesBy?: string;
}

/**
 * How a tool's standing grants are scoped: by the program and subcommand of a shell command argument, by
 * the folder of a path argument, or by the values of the named arguments (the others left free).
 */
export type GrantScopeRule =
  | { readonly kind: 'command'; readonly argument: string }
  | { readonly kind: 'folder'; readonly argument: string }
  | { readonly kind: 'arguments'; readonly names: readonly string[] };

/** A call the model asked for. `name` may be the wire name or the real name. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments exactly as the model sent them (JSON text), or an already-parsed object. */
  readonly arguments: string | JsonObject;
}

/** Why a call was not run (for the audit trail). */
export type NotRunReason =
  | 'stopped'
  | 'unreadable_arguments'
  | 'missing_arguments'
  | 'mistyped_arguments'
  | 'refused_by_tool'
  | 'failed_predecessor'
  | 'loop_breaker'
  | 'limit_reached';

/** Which gate refused a call. */
export type RefusedBy =
  | 'agent_tools'
  | 'deny_list'
  | 'task_mode'
  | 'tool_grants'
  | 'hook'
  | 'unknown_tool'
  | 'withdrawn'
  | 'preflight'
  | 'user'
  | 'unattended'
  | 'timeout'
  | 'stopped'
  | 'policy'
  | 'loop_breaker';

/** What a tool call produced, as the model will read it. Failures are results, not exceptions. */
export interface ToolResult {
  /** Text the model reads. */
  readonly content: string;
  readonly isError: boolean;
  /** Suggestions that help the model recover, also shown as `Hint:` lines. */
  readonly hints?: readonly string[];
  readonly notRun?: NotRunReason;
  readonly refusedBy?: RefusedBy;
  /** For a call the runtime refused: why, in plain words for a person (never sent to the model). */
  readonly reason?: string;
  /** Structured payload for a host (never sent to the model). */
  readonly data?: unknown;
}

/** Per-call context handed to a tool provider. */
export interface ToolContext {
  readonly sessionId: string;
  readonly callId: string;
  readonly signal: AbortSignal;
  /** Scratch space shared by the calls of one turn (e.g. which files were read this turn). */
  readonly turnState: Map<string, unknown>;
  /** Folders the file tools may touch; empty means the current directory only. */
  readonly workspace?: readonly string[];
  /** Folders a leaf may write (subagent batches); undefined means the whole workspace. */
  readonly writable?: readonly string[];
  /** Folders a leaf must not write. */
  readonly offLimits?: readonly string[];
  /**
   * The values hidden from every result (name → value). A tool that cuts what it shows hides them first,
   * since a cut can leave part of one that the hiding after the call no longer recognises.
   */
  readonly secrets?: ReadonlyMap<string, string>;
  /**
   * How many characters of a result the model is shown (the rest is cut by the runtime). A tool that can
   * stop early and say where to go on (read_file) stays within it, so that note is never the part cut.
   */
  readonly resultChars?: number;
  /**
   * How many characters of a longer result the runtime keeps whole, showing the model its start and end
   * and an id to read the rest by (`tool_result_read`); undefined when it keeps none. A tool that collects
   * output in bounded memory (`bash`) keeps this much rather than `resultChars`, so nothing the model may
   * ask for is lost before the runtime sees it.
   */
  readonly keptChars?: number;
}

/** Anything that serves tools: the built-ins, an installed app, an MCP server. */
export interface ToolProvider {
  /** Provider name, unique in a registry (e.g. `builtin`, `mcp/github`, an app's name). */
  readonly name: string;
  /** The app this provider belongs to (for log lines and the Tools page). */
  readonly app: string;
  /** True when the provider ships with the platform. */
  readonly own: boolean;
  /** Lists the tools; may throw (the registry records a load failure). */
  listTools(signal?: AbortSignal): Promise<readonly ToolDefinition[]>;
  /** Runs a call; tool failures come back as `isError` results. */
  invoke(name: string, args: JsonObject, ctx: ToolContext): Promise<ToolResult>;
  /**
   * How long a call may run by the tool's own account, in milliseconds (`bash` with its `timeout_seconds`):
   * the runtime waits that long and a little more. `null`: the tool has no limit of its own and must not be
   * cut (it waits for a person). Absent or undefined: the runtime's deadline for the tool applies.
   */
  timeLimitMs?(name: string, args: JsonObject): number | null | undefined;
  /** Declares what invoke would refuse whatever anyone answers; undefined refuses nothing. */
  preflight?(name: string, args: JsonObject, ctx: ToolContext): Promise<ToolResult | undefined>;
  /**
   * Resolves once the provider's tools are listed or its start has failed, waiting as long as a call of
   * its tools would (a listing may give up sooner and go on without a provider still starting); never rejects.
   */
  whenListed?(): Promise<void>;
  /**
   * What the last listing found wrong without failing it (tools left out, a listing cut short), a sentence
   * each; the registry records them as the provider's listing failure, which the Tools page shows.
   */
  loadProblems?(): readonly string[];
  /** Subscribes to changes of the tool list; returns an unsubscribe function. */
  onToolsChanged?(listener: () => void): () => void;
  /** Releases what the provider holds (child processes, connections). */
  close?(): Promise<void>;
}
