import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { ToolseamError } from '../core/errors.js';
import type { Runtime } from '../runtime/runtime.js';
import { type Access, loopbackHosts } from './access.js';
import { createApp } from './create-app.js';
import { People } from './people.js';
import type { QueuedTurns, ServerDeps } from './server-deps.js';
import { type ServerToken, serverToken } from './server-token.js';
import { resumeOrphan } from './start-turn.js';
import { TurnHub } from './turn-hub.js';

/** How `startServer` serves. */
export interface ServeOptions {
  readonly runtime: Runtime;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 7878; 0 picks a free port. */
  readonly port?: number;
  readonly version: string;
  readonly webRoot?: string;
  readonly keepAliveMs?: number;
  /** How often a stream reads the store for another process's turn besides its signals (ms; `TurnHubOptions.pollMs`). */
  readonly pollMs?: number;
  /**
   * Hosted mode: stores a person's turn and puts it on the job queue (a worker runs it), answering its
   * id; turns a dead process left are the workers' to take over, not this server's.
   */
  readonly queued?: QueuedTurns;
}

/** A server listening. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** Off loopback: the token, and whether this start made it. */
  readonly token?: ServerToken;
  readonly hub: TurnHub;
  /** The unfinished turns of a dead process this start took over. */
  readonly resumed: readonly string[];
  /**
   * Stops as for SIGTERM: new turns are refused, turns waiting for an approval are left waiting in the
   * store (answered after a restart), others are stopped and recorded, streams end, the port closes.
   * Resolves within `boundMs`; the runtime stays open (closing it would cancel the waiting approvals).
   */
  shutdown(boundMs?: number): Promise<void>;
  /** `shutdown`, then the runtime closed too (tests, and a host embedding the server). */
  close(): Promise<void>;
}

/** True for a name or address that only this machine reaches. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Starts `toolseam serve` on `runtime`: listens, then takes over turns a dead server left unfinished. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { runtime } = options;
  const host = options.host ?? '127.0.0.1';
  const loopback = isLoopback(host);
  const store = runtime.options.store;
  const token = loopback ? undefined : serverToken(store.path);
  let madeOnLoopback: ServerToken | undefined;
  const access: Access = {
    loopback,
    hosts: new Set(),
    people: new People(store),
    ...(token ? { token: token.token } : {}),
    // Made only once the host has users: a one-person host on loopback never needs it.
    ...(loopback
      ? {
          loopbackToken: () => {
            madeOnLoopback ??= serverToken(store.path);
            return madeOnLoopback.token;
          },
        }
      : {}),
  };
  const hub = new TurnHub({
    store: runtime.options.store,
    logger: runtime.logger,
    signals: runtime.signals,
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  });
  const deps: ServerDeps = {
    runtime,
    hub,
    access,
    version: options.version,
    webRoot: options.webRoot,
    keepAliveMs: options.keepAliveMs,
    state: { stopping: false },
    ...(options.queued ? { queued: options.queued } : {}),
  };
  const app = createApp(deps);
  // Left to itself the adaptor puts its own Request and Response in place of the process's globals, which
  // changes what every other fetch in the process reads (a host's, the model SDKs'): a body read back
  // through its Response came out re-serialized.
  const server = createAdaptorServer({
    fetch: app.fetch,
    hostname: host,
    overrideGlobalObjects: false,
  }) as Server;
  // An idle kept-alive connection stays open longer than clients keep theirs (undici 4 s, browsers
  // about a minute), so a client never sends a request on a connection the server is just closing
  // (Node's 5 s default did that under load: the POST failed with ECONNRESET).
  server.keepAliveTimeout = 75_000;
  server.headersTimeout = 76_000;
  const port = await listen(server, host, options.port ?? 7878);
  access.hosts = loopbackHosts(port);
  const shown = host.includes(':') ? `[${host}]` : host;
  const resumed = options.queued ? [] : await resumeOrphans(deps);

  let stopping: Promise<void> | undefined;
  const shutdown = (boundMs = 8_000): Promise<void> => {
    stopping ??= stopServer(deps, server, boundMs);
    return stopping;
  };
  return {
    url: `http://${shown}:${port}/`,
    port,
    host,
    ...(token ? { token } : {}),
    hub,
    resumed,
    shutdown,
    async close() {
      await shutdown();
      await runtime.close();
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      const why =
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use; pass --port with another (or 0 for any free one)`
          : `could not listen on ${host}:${port}: ${error.message}`;
      reject(new ToolseamError('listen_failed', why));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Takes over every turn a dead process left unfinished, so its approvals can be answered here. */
async function resumeOrphans(deps: ServerDeps): Promise<string[]> {
  const resumed: string[] = [];
  for (const turn of await deps.runtime.orphanedTurns()) {
    try {
      await resumeOrphan(deps, turn.id);
      resumed.push(turn.id);
    } catch (error) {
      // A subagent leaf's turn goes on with its batch; a turn on another model waits for `toolseam resume`.
      deps.runtime.logger.log({
        level: 'warn',
        scope: 'server',
        message: `turn ${turn.id} was left unfinished and is not resumed here: ${(error as Error).message}`,
      });
    }
  }
  return resumed;
}

async function stopServer(deps: ServerDeps, server: Server, boundMs: number): Promise<void> {
  deps.state.stopping = true;
  const deadline = Date.now() + boundMs;
  const store = deps.runtime.options.store;
  const stopped: Promise<void>[] = [];
  for (const turn of deps.hub.runningTurns()) {
    const record = await store.getTurn(turn.turnId).catch(() => undefined);
    // A turn waiting for a person stays waiting: the next start takes it over and the answer goes on.
    if (record?.status === 'waiting_approval') continue;
    turn.stop();
    stopped.push(turn.ended);
  }
  const left = Math.max(0, deadline - Date.now() - 500);
  await Promise.race([Promise.allSettled(stopped), new Promise((r) => setTimeout(r, left).unref())]);
  // What turns left waiting sent so far is kept before the process may exit.
  await deps.hub.flushed();
  deps.hub.endStreams();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Streams just ended; a client still connected after a moment is cut off.
    setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, 300).unref();
  });
}
