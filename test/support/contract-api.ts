import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '../../src/core/tool.js';

/** One request the loopback API received. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** What the loopback API answers: a status and a body (JSON unless text). */
export interface ApiAnswer {
  readonly status: number;
  readonly body?: unknown;
  /** Headers besides its content type. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A loopback stand-in of an API that records what it received and answers from `answer`. */
export interface LoopbackApi {
  readonly url: string;
  readonly received: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a loopback HTTP API; `answer` decides each answer (default: 200 echoing the request; undefined: never answer). */
export async function startLoopbackApi(
  answer: (request: ReceivedRequest) => ApiAnswer | undefined = (r) => ({
    status: 200,
    body: { ok: true, path: r.url },
  }),
): Promise<LoopbackApi> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const answered = answer(request);
      if (answered === undefined) return;
      const { status, body, headers } = answered;
      const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      const type = typeof body === 'string' ? 'text/plain' : 'application/json';
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const fixtures = join(import.meta.dirname, 'contract-openapi');

/** A copy of the contract app fixture `name` whose manifest sends to `baseUrl` (with `extra` settings laid over). */
export function contractAppCopy(
  name: string,
  baseUrl: string | undefined,
  extra: Record<string, unknown> = {},
): { folder: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'toolseam-contract-'));
  const folder = join(root, name);
  cpSync(join(fixtures, name), folder, { recursive: true });
  const file = join(folder, 'toolseam-app.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (baseUrl === undefined) delete manifest.baseUrl;
  else manifest.baseUrl = baseUrl;
  writeFileSync(file, JSON.stringify({ ...manifest, ...extra }));
  return { folder, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The folder of the contract app fixture `name`, as committed. */
export function contractFixture(name: string): string {
  return join(fixtures, name);
}

/** A call context for invoking a provider directly, outside a turn. */
export function directContext(): ToolContext {
  return {
    sessionId: 's',
    callId: 'c',
    signal: new AbortController().signal,
    turnState: new Map<string, unknown>(),
  };
}

/** What a test file started (a loopback API, app copies), ended by `end` after each test. */
export class ContractTestScope {
  api: LoopbackApi | undefined;
  private readonly removals: (() => void)[] = [];

  /** Removes `folder`'s copy when the test ends. */
  keep(copy: { remove(): void }): void {
    this.removals.push(() => copy.remove());
  }

  async end(): Promise<void> {
    await this.api?.close();
    this.api = undefined;
    for (const remove of this.removals.splice(0)) remove();
  }
}
