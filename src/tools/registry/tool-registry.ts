import { InputError, ToolseamError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { type Logger, silentLogger } from '../../core/logger.js';
import type { ToolContext, ToolDefinition, ToolGroup, ToolProvider, ToolResult } from '../../core/tool.js';
import { redactSecrets } from '../redact-secrets.js';
import {
  CallClock,
  type CallTimeouts,
  callLimitMs,
  STOP_GRACE_MS,
  stoppedWhileRunning,
  timedOutResult,
  untilStopped,
} from './call-deadline.js';
import { errorText, FailureLedger, type LoadFailure, type LoadFailureKind } from './failure-ledger.js';
import { RelistScheduler } from './relist-scheduler.js';
import { tagTools, toolResultOf } from './tag-tools.js';
import { DeadlineExceeded, formatMs, withDeadline } from './with-deadline.js';

/** The longest result text a tool may hand back (as an MCP server's answer may be 10 MB); longer is dropped unread. */
const MAX_RESULT_CHARS = 10_000_000;

/** How a provider was registered: under which app, with what purpose for its default group. */
export interface RegisteredProvider {
  readonly provider: ToolProvider;
  /** The app its tools are registered under (the provider's own unless the registration named one). */
  readonly app: string;
  /** One line for the provider's default catalog group. */
  readonly purpose: string;
}

/** Options for {@link ToolRegistry.register}. */
export interface RegisterOptions {
  /** Registers the provider under this app name instead of `provider.app`. */
  readonly app?: string;
  /** What the provider's default group is for, in one line. */
  readonly purpose?: string;
}

/** What {@link ToolRegistry.serve} found: the tools to offer and why others are missing. */
export interface ServedTools {
  /** One tool per name, switched on, tagged with provider, app and group; platform first. */
  readonly tools: readonly ToolDefinition[];
  /** Served tools someone switched off, tagged the same way. */
  readonly switchedOff: readonly ToolDefinition[];
  /** Every group with a tool, the platform's own first. */
  readonly groups: readonly ToolGroup[];
  readonly failures: readonly LoadFailure[];
  /** The surface stamp after this serve; rebuild the catalog when {@link ToolRegistry.surfaceStamp} differs. */
  readonly stamp: string;
}

/** Options for {@link createToolRegistry}. */
export interface ToolRegistryOptions {
  readonly logger?: Logger;
  /** Longest wait for one provider's tool list (default 60 s); a slower one is a load failure. */
  readonly listTimeoutMs?: number;
  /**
   * First wait before listing a failed provider again in the background (default 30 s, doubling up to
   * 5 minutes); when that works the surface stamp moves. 0 turns it off.
   */
  readonly relistAfterMs?: number;
  /** Tool names switched off from the start (e.g. from the config). */
  readonly switchedOff?: Iterable<string>;
  /**
   * How long a call of a tool that declares no time limit of its own may run, by tool name (default 60 s
   * for every one); a tool's own limit (`bash`'s `timeout_seconds`, an MCP server's call timeouts) wins.
   */
  readonly callTimeouts?: CallTimeouts;
  /** The longest result text a call may hand back (default 10,000,000 characters); longer is dropped with an error saying so. */
  readonly maxResultChars?: number;
}

interface Entry extends RegisteredProvider {
  readonly unsubscribe: (() => void) | undefined;
}

/**
 * Every tool provider of a runtime: built-ins, installed apps and MCP servers. Serves their tools
 * (one name, one provider, the platform's first), records why any are missing, stamps the tool
 * surface so a catalog is rebuilt only when it changes, and routes calls to the provider that serves
 * the name. A provider's failure costs only its own tools.
 */
export class ToolRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly ledger = new FailureLedger();
  private readonly off: Set<string>;
  /** Tool names switched off by the options it was made with (the config's `disabledTools`), as given. */
  readonly startedOff: readonly string[];
  private readonly logger: Logger;
  private readonly listTimeoutMs: number;
  private readonly callTimeouts: CallTimeouts | undefined;
  private readonly maxResultChars: number;
  private generation = 0;
  private fingerprint = '';
  private routes = new Map<string, Entry>();
  private served = false;
  private closed = false;
  private readonly relists: RelistScheduler;

  constructor(options: ToolRegistryOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.listTimeoutMs = options.listTimeoutMs ?? 60_000;
    this.callTimeouts = options.callTimeouts;
    this.maxResultChars = options.maxResultChars ?? MAX_RESULT_CHARS;
    this.startedOff = [...(options.switchedOff ?? [])];
    this.off = new Set(this.startedOff);
    this.relists = new RelistScheduler(options.relistAfterMs ?? 30_000, 300_000, (name) => this.relist(name));
  }

  /** Adds a provider under its app's name; a second provider with the same name is refused. */
  register(provider: ToolProvider, options: RegisterOptions = {}): void {
    if (this.closed)
      throw new ToolseamError('registry_closed', 'this tool registry was closed; create a new one.');
    if (this.entries.has(provider.name)) {
      throw new InputError(
        `a tool provider named "${provider.name}" is already registered; give each provider (server, app) its own name.`,
      );
    }
    const unsubscribe = provider.onToolsChanged?.(() => this.touch());
    const app = options.app ?? provider.app;
    this.entries.set(provider.name, { provider, app, purpose: options.purpose ?? '', unsubscribe });
    this.touch();
  }

  /** Removes a provider and closes it; false when no provider has that name. */
  async unregister(name: string): Promise<boolean> {
    const entry = this.entries.get(name);
    if (!entry) return false;
    this.entries.delete(name);
    entry.unsubscribe?.();
    this.relists.cancel(name);
    this.ledger.forget(name);
    this.touch();
    await this.closeOne(entry);
    return true;
  }

  /** The registered providers, in registration order. */
  providers(): readonly RegisteredProvider[] {
    return [...this.entries.values()].map(({ provider, app, purpose }) => ({ provider, app, purpose }));
  }

  /** A stamp that changes whenever the tool surface may have: a provider added or removed, a tool switched, a list changed. */
  surfaceStamp(): string {
    return `surface-${this.generation}`;
  }

  /** Switches a tool on or off by its real name; returns true when that changed anything. */
  setEnabled(name: string, enabled: boolean): boolean {
    const changed = enabled ? this.off.delete(name) : !this.off.has(name) && Boolean(this.off.add(name));
    if (changed) this.touch();
    return changed;
  }

  /** False for a tool someone switched off. */
  isEnabled(name: string): boolean {
    return !this.off.has(name);
  }

  /** Names of every tool switched off. */
  switchedOffNames(): readonly string[] {
    return [...this.off].sort();
  }

  /**
   * Records (or replaces) a provider's load failure of `kind`; the Tools page adds the seam's verdicts this
   * way. `app` defaults to the registered provider's app (or the provider name when none is registered).
   */
  recordFailure(providerName: string, kind: LoadFailureKind, message: string, app?: string): void {
    const entry = this.entries.get(providerName);
    this.ledger.record(providerName, app ?? entry?.app ?? providerName, kind, message);
  }

  /** Forgets a provider's load failure of `kind`. */
  clearFailure(providerName: string, kind: LoadFailureKind): void {
    this.ledger.clear(providerName, kind);
  }

  /** Every recorded load failure. */
  failures(): readonly LoadFailure[] {
    return this.ledger.all();
  }

  /**
   * Reads every provider's tools in parallel, each bounded by the list timeout, and serves them:
   * tagged with provider, app and group, one provider per name (the platform's own first, then in
   * registration order), switched-off tools set apart, failures recorded. Rejects (code `stopped`),
   * changing nothing, when `signal` aborts first.
   */
  async serve(signal?: AbortSignal): Promise<ServedTools> {
    const startedAt = this.generation;
    const entries = [...this.entries.values()];
    const ordered = [...entries.filter((e) => e.provider.own), ...entries.filter((e) => !e.provider.own)];
    const lists = await Promise.all(ordered.map((entry) => this.listOne(entry, signal)));
    // Lists cut short by the caller's stop say nothing about the providers: keep serving what was.
    if (signal?.aborted) {
      throw new ToolseamError('stopped', 'Listing the tools was stopped before every provider answered.');
    }
    const routes = new Map<string, Entry>();
    const tools: ToolDefinition[] = [];
    const switchedOff: ToolDefinition[] = [];
    ordered.forEach((entry, i) => {
      const clashes: string[] = [];
      for (const tool of lists[i] ?? []) {
        const holder = routes.get(tool.name);
        if (holder) {
          clashes.push(`${tool.name} (served by ${holder.provider.name})`);
          continue;
        }
        routes.set(tool.name, entry);
        (this.off.has(tool.name) ? switchedOff : tools).push(tool);
      }
      this.noteClashes(entry, clashes);
    });
    this.routes = routes;
    this.served = true;
    // A change announced while the lists were read (a tools/list_changed, a switch) may be missing
    // from them: the stamp handed back then matches no surface stamp, so whoever holds it serves again.
    const changedMeanwhile = this.generation !== startedAt;
    const fingerprint = JSON.stringify([...routes].map(([name, e]) => [name, e.provider.name]));
    if (fingerprint !== this.fingerprint) {
      if (this.fingerprint !== '') this.touch();
      this.fingerprint = fingerprint;
    }
    return {
      tools,
      switchedOff,
      groups: groupsOf([...tools, ...switchedOff]),
      failures: this.failures(),
      stamp: changedMeanwhile ? `${this.surfaceStamp()}~unsettled` : this.surfaceStamp(),
    };
  }

  /**
   * Waits, as long as calling them would, for the providers whose tools `names` may be (by the provider's
   * name before the tool's), so a serve after it includes a provider that is slow to start.
   */
  async whenListed(names: readonly string[]): Promise<void> {
    const waits = [...this.entries.values()]
      .filter((e) => names.some((name) => name.startsWith(`${e.provider.name}/`)))
      .map((e) => e.provider.whenListed?.());
    await Promise.all(waits);
  }

  /** The provider serving `name` after the last serve, or undefined. */
  providerOf(name: string): RegisteredProvider | undefined {
    const entry = this.routes.get(name);
    return entry && { provider: entry.provider, app: entry.app, purpose: entry.purpose };
  }

  /**
   * Runs a call on the provider that serves `name`; every failure comes back as an `isError` result, a call
   * still running at its deadline (see `callTimeouts`) as one saying so.
   */
  async invoke(name: string, args: JsonObject, ctx: ToolContext): Promise<ToolResult> {
    const entry = await this.route(name);
    if (!entry) return unknownTool(name);
    if (this.off.has(name)) return switchedOffResult(name);
    const limit = callLimitMs(entry.provider, name, args, this.callTimeouts);
    const clock = new CallClock(ctx.signal, limit);
    const work = invokeOn(entry.provider, name, args, { ...ctx, signal: clock.signal });
    const outcome = await untilStopped(work, clock.signal, STOP_GRACE_MS);
    clock.release();
    if (clock.timedOut && limit !== undefined) {
      this.logger.log({
        level: 'warn',
        scope: 'registry',
        message: `${name} (provider "${entry.provider.name}", app "${entry.app}") did not finish within ${formatMs(limit)}; toolseam stopped waiting for it, and it may still be running.`,
      });
      return timedOutResult(name, limit);
    }
    if (outcome.kind === 'settled') {
      return withinResultLimit(name, toolResultOf(outcome.value, name), this.maxResultChars);
    }
    if (outcome.kind === 'abandoned') {
      this.logger.log({
        level: 'warn',
        scope: 'registry',
        message: `${name} (provider "${entry.provider.name}", app "${entry.app}") was still running ${formatMs(STOP_GRACE_MS)} after its turn was stopped; toolseam stopped waiting for it, and it may still be running.`,
      });
      return stoppedWhileRunning(name);
    }
    // A tool that heeds its signal usually gives up by throwing: that is the stop, not a failure.
    if (ctx.signal.aborted) return stoppedWhileRunning(name);
    this.logger.log({
      level: 'warn',
      scope: 'registry',
      message: hidden(
        `${name} threw inside provider "${entry.provider.name}" (app "${entry.app}"): ${errorText(outcome.error)}`,
        ctx,
      ),
    });
    return {
      content: `Error: ${name} failed inside its provider: ${errorText(outcome.error)}`,
      isError: true,
    };
  }

  /**
   * Asks the serving provider what it would refuse; a failing check refuses nothing, and so does one still
   * undecided at the call's deadline (its promise may never settle).
   */
  async preflight(name: string, args: JsonObject, ctx: ToolContext): Promise<ToolResult | undefined> {
    const entry = await this.route(name);
    if (!entry?.provider.preflight) return undefined;
    const limit = callLimitMs(entry.provider, name, args, this.callTimeouts);
    const check = (signal: AbortSignal) =>
      Promise.resolve(entry.provider.preflight?.(name, args, { ...ctx, signal }));
    try {
      // the timer holds the process open: a check that never settles must end, not the process with it
      const refused =
        limit === undefined ? await check(ctx.signal) : await withDeadline(limit, check, ctx.signal, true);
      return refused ?? undefined;
    } catch (error) {
      this.logger.log({
        level: 'warn',
        scope: 'registry',
        message: hidden(
          `the pre-flight check of ${name} failed, so it refuses nothing: ${errorText(error)}`,
          ctx,
        ),
      });
      return undefined;
    }
  }

  /** Closes every provider (child processes, connections); the registry takes no more providers. */
  async close(): Promise<void> {
    this.closed = true;
    this.relists.stop();
    const entries = [...this.entries.values()];
    this.entries.clear();
    this.routes = new Map();
    await Promise.all(
      entries.map((entry) => {
        entry.unsubscribe?.();
        return this.closeOne(entry);
      }),
    );
  }

  private touch(): void {
    this.generation += 1;
  }

  private async route(name: string): Promise<Entry | undefined> {
    if (!this.served && this.entries.size > 0) await this.serve();
    return this.routes.get(name);
  }

  private async listOne(entry: Entry, signal?: AbortSignal): Promise<ToolDefinition[]> {
    const { provider } = entry;
    let listed: readonly unknown[];
    try {
      // keepAlive: a listing that never settles must end as a load failure, not end the process
      listed = await withDeadline(this.listTimeoutMs, (s) => provider.listTools(s), signal, true);
      if (!Array.isArray(listed)) throw new Error(`listTools answered ${typeof listed} instead of a list`);
    } catch (error) {
      if (signal?.aborted) return [];
      const message =
        error instanceof DeadlineExceeded
          ? `${provider.name} did not list its tools within ${formatMs(this.listTimeoutMs)}, so none of them are offered.`
          : error instanceof ToolseamError
            ? error.message
            : `${provider.name} could not list its tools: ${errorText(error)}`;
      this.ledger.record(provider.name, entry.app, 'list', message);
      this.relists.schedule(provider.name);
      this.logger.log({
        level: 'warn',
        scope: 'registry',
        message,
        fields: { provider: provider.name, app: entry.app },
      });
      return [];
    }
    this.ledger.clear(provider.name, 'list');
    this.relists.cancel(provider.name);
    const tagged = tagTools(listed, { provider, app: entry.app, purpose: entry.purpose });
    const problems = [...tagged.problems, ...listingProblems(provider)];
    if (problems.length > 0) this.ledger.record(provider.name, entry.app, 'listing', problems.join(' '));
    else this.ledger.clear(provider.name, 'listing');
    return tagged.tools;
  }

  /** A background attempt at a failed provider's list; when it works, the next serve picks it up. */
  private async relist(name: string): Promise<boolean> {
    const entry = this.entries.get(name);
    if (!entry || this.closed) return true;
    try {
      await withDeadline(this.listTimeoutMs, (s) => entry.provider.listTools(s));
    } catch {
      return false;
    }
    this.logger.log({ level: 'info', scope: 'registry', message: `${name} lists its tools again.` });
    this.touch();
    return true;
  }

  private noteClashes(entry: Entry, clashes: readonly string[]): void {
    if (clashes.length === 0) {
      this.ledger.clear(entry.provider.name, 'duplicate');
      return;
    }
    this.ledger.record(
      entry.provider.name,
      entry.app,
      'duplicate',
      `not served because another provider already serves the same name: ${clashes.join('; ')}.`,
    );
  }

  private async closeOne(entry: Entry): Promise<void> {
    try {
      await entry.provider.close?.();
    } catch (error) {
      this.logger.log({
        level: 'warn',
        scope: 'registry',
        message: `closing ${entry.provider.name} failed: ${errorText(error)}`,
      });
    }
  }
}

/** A registry with no providers yet. */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  return new ToolRegistry(options);
}

/**
 * What a provider says its last listing found wrong. A provider may be hosted code (an app's): a
 * `loadProblems` that throws or answers with something other than sentences becomes a problem of
 * that provider's own, never a failure of the whole serve.
 */
function listingProblems(provider: ToolProvider): readonly string[] {
  if (typeof provider.loadProblems !== 'function') return [];
  let said: unknown;
  try {
    said = provider.loadProblems();
  } catch (error) {
    return [`${provider.name} failed to say what its listing left out: ${errorText(error)}`];
  }
  if (Array.isArray(said) && said.every((p) => typeof p === 'string')) return said;
  return [
    `${provider.name} answered what its listing left out with something other than a list of sentences.`,
  ];
}

function groupsOf(tools: readonly ToolDefinition[]): ToolGroup[] {
  const byKey = new Map<string, ToolGroup>();
  for (const tool of tools)
    if (tool.group && !byKey.has(tool.group.key)) byKey.set(tool.group.key, tool.group);
  const groups = [...byKey.values()];
  return [...groups.filter((g) => g.own), ...groups.filter((g) => !g.own)];
}

/** The provider's invoke as a promise, even when it throws before returning one. */
async function invokeOn(
  provider: ToolProvider,
  name: string,
  args: JsonObject,
  ctx: ToolContext,
): Promise<unknown> {
  return provider.invoke(name, args, ctx);
}

/** A log line with the call's secrets hidden (a provider's error may quote a key it was sent). */
function hidden(message: string, ctx: ToolContext): string {
  return ctx.secrets ? redactSecrets(message, ctx.secrets) : message;
}

/** The answer to a call of a name no provider serves. */
function unknownTool(name: string): ToolResult {
  return {
    content: `Error: there is no tool named ${JSON.stringify(name)}, so nothing was run. Use tool_search to find the right name.`,
    isError: true,
    refusedBy: 'unknown_tool',
  };
}

/** The answer to a call of a tool someone switched off. */
function switchedOffResult(name: string): ToolResult {
  return {
    content: `Error: ${name} is switched off, so nothing was run. Carry on without it; the user can switch it back on.`,
    isError: true,
    refusedBy: 'withdrawn',
  };
}

/**
 * A result whose text is longer than `limit` characters, replaced by an error saying so: nothing reads,
 * redacts or stores text that size (the model is shown a few thousand characters of a result at most).
 */
function withinResultLimit(name: string, result: ToolResult, limit: number): ToolResult {
  if (result.content.length <= limit) return result;
  const size = result.content.length.toLocaleString('en-US');
  return {
    content:
      `Error: ${name} returned ${size} characters, past the ${limit.toLocaleString('en-US')} a tool result may hold, so its result was dropped unread. ` +
      'It ran; only its answer was too large to read. Ask it for a smaller part (a narrower query, a page, a range) instead.',
    isError: true,
    data: { code: 'result_too_large', chars: result.content.length, limitChars: limit },
  };
}
