import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Runtime } from '../runtime/runtime.js';
import { type ToolServer, type ToolServerOptions, toolServer } from './tool-server.js';

/** Where the Streamable HTTP endpoint listens. */
export interface HttpServeOptions extends ToolServerOptions {
  readonly port: number;
  /** Default 127.0.0.1: the tools act on this machine, so only its own clients reach them. */
  readonly host?: string;
}

/** A running Streamable HTTP endpoint. */
export interface HttpServing {
  /** The endpoint's URL (`http://host:port/mcp`). */
  readonly url: string;
  /** Stops taking connections and ends every client's session. */
  close(): Promise<void>;
}

/** One client session over HTTP: its transport and its server. */
interface Connection {
  readonly transport: StreamableHTTPServerTransport;
  readonly served: ToolServer;
}

/**
 * Serves toolseam's tools over MCP's Streamable HTTP at `/mcp`: each client session (the SDK's
 * `mcp-session-id`) gets its own server and its own toolseam session, ended when the client deletes
 * the session or the endpoint closes. On a loopback address a request must name that address as its
 * Host, so a web page that rebinds its own name to 127.0.0.1 cannot reach the tools.
 */
export async function serveHttp(runtime: Runtime, options: HttpServeOptions): Promise<HttpServing> {
  const host = options.host ?? '127.0.0.1';
  const connections = new Map<string, Connection>();
  // Set once it listens: the Host headers a page on this machine may send (a DNS rebinding page sends its own).
  let hosts: string[] | undefined;

  const open = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const served = toolServer(runtime, options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(hosts ? { allowedHosts: hosts, enableDnsRebindingProtection: true } : {}),
      onsessioninitialized: (id) => {
        connections.set(id, { transport, served });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) connections.delete(transport.sessionId);
      void served.close();
    };
    await served.server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp') return answer(res, 404, 'toolseam serves MCP at /mcp');
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? connections.get(id) : undefined;
    if (known) return known.transport.handleRequest(req, res);
    if (id === undefined && req.method === 'POST') return open(req, res);
    return answer(res, id === undefined ? 400 : 404, 'no such MCP session: initialize first');
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) answer(res, 500, (error as Error).message);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  if (LOOPBACK.includes(host)) hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  return {
    url: `http://${shown}:${port}/mcp`,
    async close() {
      const open = [...connections.values()];
      connections.clear();
      await Promise.allSettled(
        open.map(async (c) => {
          await c.transport.close();
          await c.served.close();
        }),
      );
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The addresses only this machine reaches: a request naming another host is refused there. */
const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

function answer(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
