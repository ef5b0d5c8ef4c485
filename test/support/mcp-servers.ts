import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type EventStore,
  StreamableHTTPServerTransport,
} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpStdioServerConfig } from '../../src/tools/mcp/mcp-config.js';
import type { McpInProcessServer } from '../../src/tools/mcp/mcp-server-target.js';
// @ts-expect-error: a plain ESM script shared with the stdio runs, without type declarations.
import { notesServer as makeNotesServer } from './mcp-notes-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');

/** Builds the SDK McpServer the notes script serves. */
export const notesServer = makeNotesServer as (name?: string) => McpServer;

/** A stdio server entry running the SDK-based notes server under `name`. */
export function notesStdio(name = 'notes'): McpStdioServerConfig {
  return {
    name,
    kind: 'stdio',
    command: process.execPath,
    args: [join(here, 'mcp-notes-server.mjs'), name],
    env: {},
  };
}

/** A stdio server entry running the deliberately broken server in `mode` (`more`: the mode's own arguments). */
export function brokenStdio(name: string, mode: string, more: readonly string[] = []): McpStdioServerConfig {
  return {
    name,
    kind: 'stdio',
    command: process.execPath,
    args: [join(here, 'mcp-broken-server.mjs'), mode, ...more],
    env: {},
  };
}

/** A stdio entry for an MCP server installed from npm, run through its bin with node. */
export function npmStdio(name: string, pkg: string, bin: string, args: string[] = []): McpStdioServerConfig {
  const script = join(root, 'node_modules', ...pkg.split('/'), bin);
  return { name, kind: 'stdio', command: process.execPath, args: [script, ...args], env: {} };
}

/** An in-process server: each (re)start connects a fresh SDK server over an InMemoryTransport pair. */
export function inProcess(
  name: string,
  build: () => McpServer = () => notesServer(name),
): McpInProcessServer & {
  readonly servers: McpServer[];
} {
  const servers: McpServer[] = [];
  return {
    kind: 'in-process',
    name,
    servers,
    async connect() {
      const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
      const server = build();
      servers.push(server);
      await server.connect(serverEnd);
      return clientEnd;
    },
  };
}

/** A Streamable HTTP MCP server on 127.0.0.1 (stateless: a fresh SDK server per request). */
export async function httpServer(
  build: () => McpServer = () => notesServer('web'),
  requireHeader?: readonly [string, string],
): Promise<{ url: string; close(): Promise<void>; server: Server }> {
  const server = createServer(async (req, res) => {
    if (requireHeader && req.headers[requireHeader[0]] !== requireHeader[1]) {
      res.writeHead(401).end('missing credentials');
      return;
    }
    const transport = new StreamableHTTPServerTransport({});
    const mcp = build();
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * A stateful Streamable HTTP MCP server on 127.0.0.1 (one SDK server per session, unknown sessions
 * answered 404 as the spec says, a session a client ends with DELETE forgotten); `restart` brings it back on the same port with no sessions, and
 * `refuse` answers every request with an HTTP status (as after a revoked token) until it is undone.
 * `resumable` gives it an event store: its events carry ids, and a client may resume a broken stream.
 * `json` makes it answer each request with one JSON body instead of an event stream.
 */
export async function statefulHttpServer(
  build: () => McpServer = () => notesServer('web'),
  { resumable = false, json = false }: { readonly resumable?: boolean; readonly json?: boolean } = {},
): Promise<{
  url: string;
  sessions(): number;
  forgetSessions(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
  refuse(status: number | undefined): void;
}> {
  let sessions = new Map<string, StreamableHTTPServerTransport>();
  let refusing: number | undefined;
  const listen = async (port: number): Promise<Server> => {
    const server = createServer(async (req, res) => {
      if (refusing !== undefined) {
        res.writeHead(refusing, { 'content-type': 'text/plain' }).end('the token was revoked');
        return;
      }
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (typeof id === 'string' && transport === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
        );
        return;
      }
      if (transport === undefined) {
        const own = sessions;
        const fresh = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sid) => void own.set(sid, fresh),
          onsessionclosed: (sid) => void own.delete(sid),
          ...(json ? { enableJsonResponse: true } : {}),
          ...(resumable ? { eventStore: orderedEventStore(), retryInterval: 50 } : {}),
        });
        await build().connect(fresh);
        transport = fresh;
      }
      await transport.handleRequest(req, res);
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return server;
  };
  let server: Server | undefined = await listen(0);
  const { port } = server.address() as AddressInfo;
  const stop = async (): Promise<void> => {
    const closing = server;
    server = undefined;
    if (closing === undefined) return;
    const gone = [...sessions.values()];
    sessions = new Map();
    await Promise.all(gone.map((t) => t.close()));
    closing.closeAllConnections();
    await new Promise<void>((done) => closing.close(() => done()));
  };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessions: () => sessions.size,
    /** What a restart does to the sessions, with the port kept open (no connection is cut). */
    async forgetSessions() {
      const gone = [...sessions.values()];
      sessions = new Map();
      await Promise.all(gone.map((t) => t.close()));
    },
    stop,
    refuse: (status) => {
      refusing = status;
    },
    async restart() {
      await stop();
      server = await listen(port);
    },
  };
}

/**
 * An event store that replays in the order events were stored (the SDK's example store orders ids made
 * in one millisecond at random, so it can leave out an answer stored just after the last event read).
 */
function orderedEventStore(): EventStore {
  const events: { readonly id: string; readonly stream: string; readonly message: JSONRPCMessage }[] = [];
  return {
    async storeEvent(stream, message) {
      const id = String(events.length + 1);
      events.push({ id, stream, message });
      return id;
    },
    async getStreamIdForEventId(id) {
      return events.find((e) => e.id === id)?.stream;
    },
    async replayEventsAfter(lastId, { send }) {
      const last = events.find((e) => e.id === lastId);
      if (last === undefined) return '';
      for (const e of events.slice(Number(lastId))) if (e.stream === last.stream) await send(e.id, e.message);
      return last.stream;
    },
  };
}
