import { statSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger.js';
import { redactSecrets } from '../redact-secrets.js';
import { errorText } from '../registry/failure-ledger.js';
import { DeadlineExceeded, formatMs, withDeadline } from '../registry/with-deadline.js';
import { answeredByServer, answerWords, ErrorAnswers, sdkFailure } from './error-answers.js';
import { ANSWER_RESUME, type BrokenAnswer, watchAnswerStreams } from './http-answer-watch.js';
import { serverCredentials, urlCredentialsAsHeader } from './http-credentials.js';
import type { McpBackoff } from './mcp-config.js';
import { McpServerError } from './mcp-server-error.js';
import type { McpServerTarget } from './mcp-server-target.js';
import { refuseServerRequests } from './server-requests.js';
import { shownCommand } from './shown-command.js';
import { StdioGroupTransport, UnreadableLineError } from './stdio-group-transport.js';

/** What a connection needs besides its target. */
export interface McpConnectionOptions {
  readonly startMs: number;
  readonly backoff: McpBackoff;
  /** Largest single message a server may send; a bigger answer fails only its own request. */
  readonly maxMessageBytes: number;
  readonly logger: Logger;
  readonly onToolsListChanged: () => void;
  readonly now: () => number;
}

const STDERR_TAIL_CHARS = 1_000;
const STDOUT_NOISE_LINES = 3;
/** How long a close waits for an HTTP server to end toolseam's session. */
const SESSION_END_MS = 2_000;
const OVERSIZED = /exceeded maximum size/;
const OVERSIZED_WORDS = 'it sent a message larger than toolseam accepts';

/**
 * One MCP server's connection: started on first use, watched for crashes, restarted on the next use
 * after a crash or failed start once its back-off has passed. Every failure is an McpServerError.
 */
export class McpConnection {
  private live: Client | undefined;
  private starting: Promise<Client> | undefined;
  private closed = false;
  private failures = 0;
  private retryAt = 0;
  private downReason = '';
  private stderrTail = '';
  /** The last lines a stdio server wrote on stdout that were not messages (a server that prints its errors). */
  private stdoutNoise: string[] = [];
  private lastError = '';
  /** What each client's server answered with an error (an SDK failure and a server's answer share codes). */
  private readonly answers = new WeakMap<Client, ErrorAnswers>();
  /** The client of the start in progress, so a close can end it. */
  private startingClient: Client | undefined;
  /** Counts successful starts, so a listing can tell it predates a restart. */
  generation = 0;
  /** The credentials the server was given: in its environment (`GITHUB_TOKEN`, …), or its URL and headers. */
  private readonly secrets: ReadonlyMap<string, string>;
  /** The target as reached: an HTTP URL's user and password moved into an Authorization header. */
  readonly target: McpServerTarget;

  constructor(
    configured: McpServerTarget,
    private readonly options: McpConnectionOptions,
  ) {
    this.target = urlCredentialsAsHeader(configured, options.logger);
    this.secrets = serverCredentials(configured);
  }

  /**
   * `text` with the server's credentials (its environment's, its URL's and headers') hidden: a server
   * that prints its token (in an error, or a result), or a failure quoting its URL, must not hand it to
   * the model, the session store or the log.
   */
  hideSecrets(text: string): string {
    return this.secrets.size === 0 ? text : redactSecrets(text, this.secrets);
  }

  /** The connected client, starting the server when needed. */
  async client(): Promise<Client> {
    if (this.closed) throw this.closedError();
    if (this.live) return this.live;
    if (this.starting) return this.starting;
    const wait = this.retryAt - this.options.now();
    if (wait > 0) {
      throw new McpServerError(
        this.target.name,
        'down',
        `MCP server "${this.target.name}" is not running (${this.downReason}); toolseam will try to start it again in ${formatMs(wait)}.`,
      );
    }
    this.starting = this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /**
   * Sends the one request `issue` makes on `client`, so that an error the server answers it with is
   * known as the server's own (see {@link answeredByServer}) and not taken for the SDK's failure.
   */
  request<T>(client: Client, issue: () => Promise<T>): Promise<T> {
    const answers = this.answers.get(client);
    return answers ? answers.request(issue) : issue();
  }

  /** True once the provider shut the server down on purpose. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether the server is connected right now. */
  get connected(): boolean {
    return this.live !== undefined;
  }

  /** The server's own description of itself (first line of its instructions or title), '' when none. */
  purpose(): string {
    const info = this.live?.getServerVersion() as { description?: unknown; title?: unknown } | undefined;
    const text = [info?.description, this.live?.getInstructions(), info?.title].find(
      (t): t is string => typeof t === 'string' && t.trim() !== '',
    );
    return text?.trim().split('\n')[0]?.slice(0, 200) ?? '';
  }

  /**
   * After a request on `client` failed with `error`: when it shows that an HTTP server lost this
   * session (it restarted: 404) or cannot be reached, lets the client go, so the next use starts a
   * new session instead of failing on the dead one for good. Says which it was, or undefined.
   */
  dropLost(client: Client, error: unknown): HttpLoss | undefined {
    if (this.target.kind !== 'http' || this.live !== client) return undefined;
    const loss = httpLoss(error);
    if (loss === undefined) return undefined;
    this.live = undefined;
    // The server is up when it answers 404, so the new session starts at once; one that is not
    // reachable waits for its back-off like a server that crashed.
    if (loss !== 'session_gone') this.markDown(`it could not be reached (${errorText(error)})`);
    void client.close().catch(() => undefined);
    this.options.logger.log({
      level: loss === 'session_gone' ? 'info' : 'warn',
      scope: 'mcp',
      message:
        loss === 'session_gone'
          ? `MCP server "${this.target.name}" no longer knows toolseam's session (it restarted?); starting a new one.`
          : this.hideSecrets(
              `MCP server "${this.target.name}" could not be reached (${errorText(error)}); toolseam connects again on a later use.`,
            ),
      fields: { server: this.target.name },
    });
    return loss;
  }

  /**
   * An HTTP server's answer to a request broke off with no way to resume it (the server went down
   * mid-call): the session is ended, so every call waiting on it fails now instead of at its timeout.
   */
  private brokeOff(client: Client, broken: BrokenAnswer): void {
    if (this.live !== client) return;
    this.lastError = `its answer broke off before it was complete (${broken.why})`;
    void client.close().catch(() => undefined);
  }

  private noteNoise(line: string): void {
    if (line.trim() === '') return;
    this.stdoutNoise = [...this.stdoutNoise.slice(-(STDOUT_NOISE_LINES - 1)), line.trim()];
  }

  private oversizedWords(): string {
    return `${OVERSIZED_WORDS} (${this.options.maxMessageBytes.toLocaleString('en-US')} bytes)`;
  }

  /** Resets the back-off: the server answered a request, so it works. */
  noteSuccess(): void {
    this.failures = 0;
  }

  /** Why the last connection ended, for refusals: stderr's last words or the transport's error. */
  lastWords(): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    // A server that says nothing on stderr may have printed why it stopped on stdout instead.
    const noise = tail ? '' : this.stdoutNoise.join(' | ');
    const said = [
      this.lastError,
      tail ? `its stderr ended with: ${tail}` : '',
      noise ? `its stdout ended with: ${noise}` : '',
    ].filter(Boolean);
    return this.hideSecrets(said.join('; '));
  }

  /** Stops the server (kills its process, or ends its HTTP session); later uses fail with `closed`. */
  async close(): Promise<void> {
    this.closed = true;
    // A start in progress is ended, not waited for: a server that never answers initialize would
    // otherwise hold the close for the whole start timeout.
    await this.startingClient?.close().catch(() => undefined);
    await this.starting?.catch(() => undefined);
    const client = this.live;
    this.live = undefined;
    const transport = client?.transport;
    // An HTTP server keeps a session until told it is over; one that will not say so in time is left.
    if (transport instanceof StreamableHTTPClientTransport) {
      await withDeadline(SESSION_END_MS, () => transport.terminateSession()).catch(() => undefined);
    }
    await client?.close().catch(() => undefined);
  }

  private async start(): Promise<Client> {
    this.stderrTail = '';
    this.stdoutNoise = [];
    this.lastError = '';
    const client = new Client({ name: 'toolseam', version: '0.1.0' }, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.options.onToolsListChanged());
    refuseServerRequests(client, this.target.name, this.options.logger);
    client.onerror = (error) => {
      // An unreadable line is noise the connection goes on after, never why it ended (though it may
      // say why, kept for last words); and an oversized message ends it, its rest then arriving as
      // unreadable lines: keep the cause, not the rest.
      const oversized = this.lastError.startsWith(OVERSIZED_WORDS);
      if (error instanceof UnreadableLineError) {
        if (!oversized) this.noteNoise(error.line);
      } else if (!oversized) {
        this.lastError = OVERSIZED.test(error.message) ? this.oversizedWords() : error.message.slice(0, 300);
      }
      this.options.logger.log({
        level: 'debug',
        scope: 'mcp',
        message: this.hideSecrets(`MCP server "${this.target.name}" transport error: ${error.message}`),
        fields: { server: this.target.name },
      });
    };
    client.onclose = () => {
      if (this.live !== client) return;
      this.live = undefined;
      const words = this.lastWords();
      const ended = this.target.kind === 'http' ? 'its connection ended' : 'it exited';
      this.markDown(words ? `${ended}; ${words}` : ended);
      this.options.logger.log({
        level: 'warn',
        scope: 'mcp',
        message: `MCP server "${this.target.name}" stopped (${this.downReason}); its tools are unavailable until it restarts.`,
        fields: { server: this.target.name },
      });
    };
    this.startingClient = client;
    let transport: Transport | undefined;
    try {
      transport = await this.transport(client);
      if (this.closed) throw this.closedError();
      const opened = transport;
      const answers = new ErrorAnswers();
      answers.watch(opened);
      this.answers.set(client, answers);
      await withDeadline(this.options.startMs, () =>
        answers.connect(() => client.connect(opened, { timeout: this.options.startMs })),
      );
      if (this.closed) throw this.closedError();
    } catch (error) {
      // Read before the close: closing adds the transport's own noise (a cancellation it cannot send).
      const failure = this.closed ? this.closedError() : this.startFailure(error);
      await (client.transport ? client.close() : transport?.close())?.catch(() => undefined);
      throw failure;
    } finally {
      this.startingClient = undefined;
    }
    this.live = client;
    this.generation += 1;
    return client;
  }

  private closedError(): McpServerError {
    return new McpServerError(this.target.name, 'closed', `MCP server "${this.target.name}" was closed.`);
  }

  private startFailure(error: unknown): McpServerError {
    const name = this.target.name;
    const timedOut = error instanceof DeadlineExceeded || sdkFailure(error, ErrorCode.RequestTimeout);
    const exited = sdkFailure(error, ErrorCode.ConnectionClosed);
    const answered = answeredByServer(error);
    const missing =
      timedOut || exited || answered ? undefined : (this.spawnProblem(error) ?? this.reachProblem(error));
    const reason = timedOut
      ? `did not finish starting within ${formatMs(this.options.startMs)}`
      : exited
        ? 'exited while starting'
        : answered
          ? `answered initialize with an error: ${answerWords(error)}`
          : `could not be started: ${missing ?? errorText(error)}`;
    // The transport's error is often the very one the reason already gives.
    const said = this.lastWords();
    const words = missing !== undefined || this.hideSecrets(reason).includes(said) ? '' : said;
    this.markDown(`it ${reason}${words ? `; ${words}` : ''}`);
    const target = this.target;
    const hint =
      target.kind === 'stdio'
        ? ` Run ${JSON.stringify(shownCommand(target.command, target.args))} in a terminal to see it start.`
        : target.kind === 'http'
          ? ` Check that ${target.url} is up and takes the configured headers.`
          : '';
    return new McpServerError(
      name,
      timedOut ? 'start_timeout' : 'start_failed',
      this.hideSecrets(`MCP server "${name}" ${reason}${words ? ` (${words})` : ''}.${hint}`),
      { cause: error },
    );
  }

  /** A stdio server's command or working folder that is not there, in plain words; else undefined. */
  private spawnProblem(error: unknown): string | undefined {
    const target = this.target;
    if (target.kind !== 'stdio' || (error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    if (target.cwd !== undefined && !isFolder(target.cwd)) {
      return `its working folder ${target.cwd} does not exist; fix "cwd" in its config`;
    }
    return `the command ${JSON.stringify(target.command)} was not found; give its full path or put it on PATH`;
  }

  /** Why an HTTP server could not be reached (refused, unknown host, …) in plain words; else undefined. */
  private reachProblem(error: unknown): string | undefined {
    const target = this.target;
    const loss = httpLoss(error);
    if (target.kind !== 'http' || (loss !== 'refused' && loss !== 'unreachable')) return undefined;
    const cause = (error as Error).cause as NodeJS.ErrnoException | undefined;
    if (loss === 'refused') return `nothing answers at ${target.url} (the connection was refused)`;
    if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') {
      return `the host of ${target.url} could not be found`;
    }
    return `${target.url} could not be reached (${cause?.message ?? errorText(error)})`;
  }

  private markDown(reason: string): void {
    this.downReason = this.hideSecrets(reason);
    this.failures += 1;
    const { initialMs, maxMs } = this.options.backoff;
    this.retryAt = this.options.now() + Math.min(maxMs, initialMs * 2 ** (this.failures - 1));
  }

  private async transport(client: Client): Promise<Transport> {
    const target = this.target;
    if (target.kind === 'in-process') return target.connect();
    if (target.kind === 'http') {
      return new StreamableHTTPClientTransport(new URL(target.url), {
        requestInit: { headers: { ...target.headers } },
        reconnectionOptions: ANSWER_RESUME,
        fetch: watchAnswerStreams(this.options.maxMessageBytes, (broken) => this.brokeOff(client, broken)),
      });
    }
    const transport = new StdioGroupTransport({
      command: target.command,
      args: target.args,
      env: { ...target.env },
      maxMessageBytes: this.options.maxMessageBytes,
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    });
    transport.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return transport;
  }
}

/**
 * How an HTTP server was lost: it answered 404 to a request of an established session (the session
 * is gone; it never saw the request), refused the connection (nothing was sent), or the request
 * failed on the way (whether the server saw it is unknown).
 */
export type HttpLoss = 'session_gone' | 'refused' | 'unreachable';

/** The kind of loss `error` shows, or undefined for any other failure (an MCP error answer, a timeout). */
export function httpLoss(error: unknown): HttpLoss | undefined {
  if (error instanceof StreamableHTTPError) return error.code === 404 ? 'session_gone' : undefined;
  if (!(error instanceof TypeError) || !/fetch failed|terminated/.test(error.message)) return undefined;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return code === 'ECONNREFUSED' ? 'refused' : 'unreachable';
}

/** The status when an HTTP server turned a request down for its credentials (401 or 403), else undefined. */
export function credentialsRefused(error: unknown): 401 | 403 | undefined {
  if (!(error instanceof StreamableHTTPError)) return undefined;
  return error.code === 401 || error.code === 403 ? error.code : undefined;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
