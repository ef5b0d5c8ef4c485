import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import type { JsonObject } from '../../core/json.js';
import { type Logger, silentLogger } from '../../core/logger.js';
import type { ToolContext, ToolDefinition, ToolGroup, ToolResult } from '../../core/tool.js';
import { asClientSends } from '../arguments/client-coercion.js';
import { refuseMistypedArguments } from '../arguments/refusal-note.js';
import { redactSecrets } from '../redact-secrets.js';
import { errorText } from '../registry/failure-ledger.js';
import { DeadlineExceeded, formatMs, withDeadline } from '../registry/with-deadline.js';
import { childSignal, untilAborted } from './child-signal.js';
import { answeredByServer, answerWords, sdkFailure } from './error-answers.js';
import {
  callFailure,
  notHere,
  offersNoTools,
  refusal,
  stoppedBeforeSent,
  withErrorPrefix,
} from './mcp-call-failure.js';
import { DEFAULT_MCP_BACKOFF, type McpTimeouts, PROGRESS_LIMIT } from './mcp-config.js';
import { type HttpLoss, httpLoss, McpConnection } from './mcp-connection.js';
import { mcpResultText } from './mcp-result-text.js';
import { McpServerError } from './mcp-server-error.js';
import type { McpServerTarget } from './mcp-server-target.js';
import { listingFingerprint, type McpListedTool, mcpToolName, readToolListing } from './mcp-tool-listing.js';
import type { McpProviderOptions, McpToolProvider } from './mcp-tool-provider.js';

/** A page of `tools/list` read loosely: each tool is checked on its own, so one bad tool costs only itself. */
const LooseResult = z.looseObject({});
const MAX_PAGES = 100;

interface Listing {
  readonly generation: number;
  readonly byName: ReadonlyMap<string, McpListedTool>;
  readonly definitions: readonly ToolDefinition[];
  readonly problems: readonly string[];
  readonly fingerprint: string;
}

/** How long a listing waits in silence before it says which server it waits for. */
const NOTICE_MS = 3_000;

/** Asking for progress is what lets a server report it (the SDK sends a progress token only then). */
function noteProgress(): void {}

/**
 * An MCP server as a tool provider on the MCP SDK: what `createMcpProvider` hands the work to once the
 * provider is first used. `timeouts` are the resolved ones; `listeners` are the provider's subscribers
 * to changes of its tools, shared with the provider that made this one.
 */
export class SdkMcpProvider implements McpToolProvider {
  readonly name: string;
  readonly app: string;
  readonly own = false;
  readonly server: string;
  private readonly connection: McpConnection;
  private readonly logger: Logger;
  private readonly maxResultChars: number;
  private listing: Listing | undefined;
  private listingStale = false;
  private fetching: Promise<Listing> | undefined;
  /** The fetch someone was told is slow, so they are told once. */
  private noticed: Promise<Listing> | undefined;
  /** The fetch a caller stopped waiting for, going on without the tools: its outcome is announced. */
  private leftOut: Promise<Listing> | undefined;

  constructor(
    target: McpServerTarget,
    options: McpProviderOptions,
    private readonly timeouts: McpTimeouts,
    private readonly listeners: Set<() => void>,
  ) {
    this.server = target.name;
    this.name = `mcp/${target.name}`;
    this.app = options.app ?? target.name;
    this.logger = options.logger ?? silentLogger;
    this.maxResultChars = options.maxResultChars ?? 100_000;
    this.connection = new McpConnection(target, {
      startMs: this.timeouts.startMs,
      backoff: { ...DEFAULT_MCP_BACKOFF, ...options.backoff },
      maxMessageBytes: options.maxMessageBytes ?? 10 * 1024 * 1024,
      logger: this.logger,
      now: options.now ?? Date.now,
      onToolsListChanged: () => {
        this.listingStale = true;
        this.emitChange();
      },
    });
  }

  get connected(): boolean {
    return this.connection.connected;
  }

  async listTools(signal?: AbortSignal): Promise<readonly ToolDefinition[]> {
    return (await this.listingWithin(this.timeouts.waitMs, signal)).definitions;
  }

  async whenListed(): Promise<void> {
    const { startMs, listMs } = this.timeouts;
    await this.listingWithin(startMs + listMs).catch(() => undefined);
  }

  loadProblems(): readonly string[] {
    return this.listing?.problems ?? [];
  }

  async invoke(name: string, args: JsonObject, ctx: ToolContext): Promise<ToolResult> {
    const serverName = this.serverToolName(name);
    if (serverName === undefined) return notHere(name, this.server);
    let listing: Listing;
    try {
      listing = await this.currentListing(ctx.signal);
    } catch (error) {
      if (ctx.signal.aborted) return stoppedBeforeSent(name, this.server, 'to list its tools');
      return refusal(`${name} was not run: ${errorText(error)}`);
    }
    const tool = listing.byName.get(name);
    if (!tool) return notHere(name, this.server);
    // The same check as preflight, again: the listing may have changed while an approval waited.
    const schema = tool.definition.parameters;
    const mistyped = refuseMistypedArguments(name, args, schema, { asClientSends: true });
    if (mistyped) return withErrorPrefix(mistyped);
    const sent = asClientSends(args, schema);
    let client: Awaited<ReturnType<McpConnection['client']>>;
    try {
      client = await this.connection.client();
    } catch (error) {
      if (ctx.signal.aborted) return stoppedBeforeSent(name, this.server, 'to start');
      return refusal(`${name} was not run: ${errorText(error)}`);
    }
    // The SDK never removes its listener from a request's signal, and a turn's signal outlives many calls.
    const call = childSignal(ctx.signal);
    const request = (on: typeof client) =>
      this.connection.request(on, () =>
        on.request({ method: 'tools/call', params: { name: serverName, arguments: sent } }, LooseResult, {
          // callMs bounds a silence: a server that keeps reporting progress may work on, up to ten times it.
          timeout: this.timeouts.callMs,
          onprogress: noteProgress,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: PROGRESS_LIMIT * this.timeouts.callMs,
          signal: call.signal,
        }),
      );
    try {
      const raw = await request(client).catch(async (error: unknown) => {
        // A server that lost the session (it restarted) never saw the call: a new session takes it.
        const loss = this.connection.dropLost(client, error);
        if (loss !== 'session_gone' || ctx.signal.aborted) throw new LostOnTheWay(error, loss);
        return request(await this.connection.client());
      });
      this.connection.noteSuccess();
      const { secrets } = ctx;
      const read = mcpResultText(raw, this.maxResultChars, (shown) => {
        const hidden = this.connection.hideSecrets(shown);
        return secrets ? redactSecrets(hidden, secrets) : hidden;
      });
      const text = read.text;
      const content = read.isError && !/^error\b/i.test(text) ? `Error: ${text}` : text;
      return read.structured === undefined
        ? { content, isError: read.isError }
        : { content, isError: read.isError, data: { structuredContent: read.structured } };
    } catch (thrown) {
      const { error, loss } = thrown instanceof LostOnTheWay ? thrown : { error: thrown, loss: undefined };
      return callFailure(this.connection, this.timeouts.callMs, name, error, ctx.signal, loss);
    } finally {
      call.release();
    }
  }

  /**
   * Refuses, before anyone is asked, a call whose arguments are not of the types the tool's input schema
   * declares (read as the client will send them): that schema is the server's validator. Uses only the
   * cached listing and sends nothing; an unknown tool or an unreadable schema refuses nothing.
   */
  async preflight(name: string, args: JsonObject): Promise<ToolResult | undefined> {
    const tool = this.listing?.byName.get(name);
    if (!tool) return undefined;
    const refusal = refuseMistypedArguments(name, args, tool.definition.parameters, { asClientSends: true });
    return refusal && withErrorPrefix(refusal);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  private serverToolName(name: string): string | undefined {
    const prefix = mcpToolName(this.server, '');
    return name.startsWith(prefix) && name.length > prefix.length ? name.slice(prefix.length) : undefined;
  }

  private emitChange(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.logger.log({
          level: 'warn',
          scope: 'mcp',
          message: `a tools-changed listener failed: ${errorText(error)}`,
        });
      }
    }
  }

  /** The cached listing while it is current; a fresh one after a restart or a list-changed notice. */
  private async currentListing(signal?: AbortSignal): Promise<Listing> {
    const cached = this.listing;
    if (
      cached &&
      !this.listingStale &&
      this.connection.connected &&
      cached.generation === this.connection.generation
    ) {
      return cached;
    }
    // One fetch serves every caller meanwhile, so only its own deadline bounds it: a caller that is
    // stopped stops waiting, without failing the others' wait.
    if (this.fetching === undefined) {
      const fetching = this.fetchListing().finally(() => {
        this.fetching = undefined;
      });
      this.fetching = fetching;
      // Every caller may have stopped waiting (or the provider closed meanwhile): a failure nobody
      // waits for any more must not surface as an unhandled rejection, which ends a Node process.
      fetching.then(
        () => this.arrivedLate(fetching),
        (error: unknown) => this.failedLate(fetching, error),
      );
    }
    if (signal === undefined) return this.fetching;
    return untilAborted(this.fetching, signal, () => this.stoppedWaiting(signal.reason));
  }

  /**
   * The listing, waited for at most `waitMs` while the server is still starting or listing (one that
   * never answers would hold the caller for its whole start and list timeouts): past that the caller
   * goes on without its tools, told why, while the start and listing go on; a listing that arrives
   * later is announced as a change of tools. A caller waiting NOTICE_MS is told what it waits for.
   */
  private listingWithin(waitMs: number, signal?: AbortSignal): Promise<Listing> {
    const listing = this.currentListing(signal);
    const fetching = this.fetching;
    if (fetching === undefined) return listing;
    return new Promise<Listing>((resolve, reject) => {
      const notice =
        NOTICE_MS < waitMs ? setTimeout(() => this.noteSlow(fetching, waitMs), NOTICE_MS) : undefined;
      const giveUp = setTimeout(() => {
        this.leftOut = fetching;
        reject(this.notReady(waitMs));
      }, waitMs);
      listing.then(resolve, reject).finally(() => {
        clearTimeout(notice);
        clearTimeout(giveUp);
      });
    });
  }

  /** What the server is doing while a listing waits for it, in words. */
  private waitingFor(): string {
    return this.connection.connected ? 'has not listed its tools' : 'has not finished starting';
  }

  private noteSlow(fetching: Promise<Listing>, waitMs: number): void {
    if (this.noticed === fetching) return;
    this.noticed = fetching;
    this.logger.log({
      level: 'warn',
      scope: 'mcp',
      message: `MCP server "${this.server}" ${this.waitingFor()} after ${formatMs(NOTICE_MS)}; toolseam waits for it up to ${formatMs(waitMs)} before going on without its tools.`,
      fields: { server: this.server },
    });
  }

  private notReady(waitMs: number): McpServerError {
    return new McpServerError(
      this.server,
      'not_ready',
      `MCP server "${this.server}" ${this.waitingFor()} after ${formatMs(waitMs)}, so its tools are left out for now; ` +
        'toolseam goes on waiting in the background, and offers its tools from the next message once they arrive (a longer "waitMs" in "mcpTimeouts" waits longer).',
    );
  }

  /** A listing that came after a caller went on without it: the tools join from the next turn. */
  private arrivedLate(fetching: Promise<Listing>): void {
    if (this.leftOut !== fetching) return;
    this.leftOut = undefined;
    this.logger.log({
      level: 'info',
      scope: 'mcp',
      message: `MCP server "${this.server}" is up after all; its tools are offered from the next message.`,
      fields: { server: this.server },
    });
    this.emitChange();
  }

  /** A listing that failed after a caller went on without it: says how it ended, since "for now" was all it was told. */
  private failedLate(fetching: Promise<Listing>, error: unknown): void {
    if (this.leftOut !== fetching) return;
    this.leftOut = undefined;
    if (this.connection.isClosed) return;
    this.logger.log({
      level: 'warn',
      scope: 'mcp',
      message: errorText(error),
      fields: { server: this.server },
    });
  }

  private async fetchListing(): Promise<Listing> {
    const client = await this.connection.client();
    try {
      return await this.listOn(client);
    } catch (error) {
      const cause = error instanceof McpServerError ? error.cause : error;
      // A server that restarted lost the session: list again on a new one, once.
      if (this.connection.dropLost(client, cause) !== 'session_gone') throw error;
      return await this.listOn(await this.connection.client());
    }
  }

  private async listOn(client: Client): Promise<Listing> {
    const generation = this.connection.generation;
    this.listingStale = false;
    const raw: unknown[] = [];
    let pages = 0;
    let more = false;
    try {
      await withDeadline(this.timeouts.listMs, async (deadline) => {
        let cursor: string | undefined;
        for (; pages < MAX_PAGES; pages += 1) {
          const params = cursor === undefined ? {} : { cursor };
          // The SDK leaves a listener on each request's signal: one per page would pile up on the deadline.
          const page = childSignal(deadline);
          const answer: Record<string, unknown> = await this.connection
            .request(client, () =>
              client.request({ method: 'tools/list', params }, LooseResult, {
                timeout: this.timeouts.listMs,
                signal: page.signal,
              }),
            )
            .catch((error: unknown) => {
              // A server for resources or prompts alone has no tools to list: that is not a failure.
              if (offersNoTools(client, error)) return { tools: [] };
              throw error;
            })
            .finally(page.release);
          if (!Array.isArray(answer.tools)) {
            throw new McpServerError(
              this.server,
              'bad_listing',
              `MCP server "${this.server}" answered tools/list without a list of tools, so none of its tools can be offered.`,
            );
          }
          raw.push(...answer.tools);
          // An empty cursor is a server writing the field with nothing in it, not a page to ask for.
          more =
            typeof answer.nextCursor === 'string' && answer.nextCursor !== '' && answer.nextCursor !== cursor;
          if (!more) break;
          cursor = answer.nextCursor as string;
        }
      });
    } catch (error) {
      // The listing in hand is still the one from before the notice: the next caller asks again.
      this.listingStale = true;
      throw this.listFailure(error);
    }
    this.connection.noteSuccess();
    const cutShort =
      more && pages >= MAX_PAGES
        ? [
            `MCP server "${this.server}" kept answering tools/list with more pages; toolseam read the first ${MAX_PAGES} (${raw.length} tools) and offers only those.`,
          ]
        : [];
    return this.adopt(raw, generation, cutShort);
  }

  private adopt(raw: readonly unknown[], generation: number, cutShort: readonly string[]): Listing {
    const group: ToolGroup = { key: this.name, own: false, purpose: this.connection.purpose() };
    const listed = readToolListing(raw, { server: this.server, provider: this.name, app: this.app, group });
    const read = { ...listed, problems: [...cutShort, ...listed.problems] };
    for (const problem of read.problems) {
      this.logger.once(`mcp:${this.server}:${problem}`, {
        level: 'warn',
        scope: 'mcp',
        message: problem,
        fields: { server: this.server, app: this.app },
      });
    }
    const definitions = read.tools.map((t) => t.definition);
    const fingerprint = listingFingerprint(definitions);
    const previous = this.listing;
    this.listing = {
      generation,
      byName: new Map(read.tools.map((t) => [t.definition.name, t])),
      definitions,
      problems: read.problems,
      fingerprint,
    };
    // A restart can bring a different tool list without any notice from the server.
    if (previous && previous.fingerprint !== fingerprint && !this.listingStale) this.emitChange();
    return this.listing;
  }

  /** A caller that stopped waiting for the listing: its own deadline passed, or it was stopped. */
  private stoppedWaiting(reason: unknown): McpServerError {
    const why =
      reason instanceof DeadlineExceeded ? `its wait of ${formatMs(reason.ms)} ran out` : 'it was stopped';
    return new McpServerError(
      this.server,
      'list_failed',
      `The caller stopped waiting for MCP server "${this.server}" to list its tools (${why}).`,
      { cause: reason },
    );
  }

  private listFailure(error: unknown): McpServerError {
    if (error instanceof McpServerError) return error;
    const timedOut = error instanceof DeadlineExceeded || sdkFailure(error, ErrorCode.RequestTimeout);
    if (timedOut) {
      return new McpServerError(
        this.server,
        'list_timeout',
        `MCP server "${this.server}" did not answer tools/list within ${formatMs(this.timeouts.listMs)}, so none of its tools can be offered.`,
        { cause: error },
      );
    }
    const why = sdkFailure(error, ErrorCode.ConnectionClosed)
      ? `exited while listing its tools (${this.connection.lastWords() || 'no reason given'})`
      : httpLoss(error) !== undefined
        ? `could not be reached while listing its tools (${this.connection.hideSecrets(errorText(error))})`
        : answeredByServer(error)
          ? `answered tools/list with an error: ${this.connection.hideSecrets(answerWords(error))}`
          : `could not list its tools: ${this.connection.hideSecrets(errorText(error))}`;
    return new McpServerError(this.server, 'list_failed', `MCP server "${this.server}" ${why}.`, {
      cause: error,
    });
  }
}

/** A call's failure, with how the HTTP server was lost on the way when it was. */
class LostOnTheWay {
  constructor(
    readonly error: unknown,
    readonly loss: HttpLoss | undefined,
  ) {}
}
