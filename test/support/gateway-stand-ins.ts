import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a stand-in received. */
export interface Hit {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

/** A scripted answer: status, headers and a body (an object is sent as JSON), or one held open until the stand-in closes. */
export type Reply =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown }
  | { readonly hold: true };

/** A loopback stand-in of one service's HTTP API. */
export interface GatewayStandIn {
  /** http://127.0.0.1:PORT */
  readonly base: string;
  /** host:port, as the allow-list compares it. */
  readonly host: string;
  readonly hits: Hit[];
  /** Answers the next requests with these, in order; after them each request gets the service's success. */
  script(...replies: Reply[]): void;
  /** Resolves once `count` requests have arrived. */
  waitForHits(count: number): Promise<void>;
  close(): Promise<void>;
}

type Success = (
  hit: Hit,
  index: number,
) => { status: number; headers?: Record<string, string>; body?: unknown };

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function answer(
  response: ServerResponse,
  reply: { status: number; headers?: Record<string, string>; body?: unknown },
) {
  const isText = typeof reply.body === 'string' || reply.body === undefined;
  response.writeHead(reply.status, {
    'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json',
    ...reply.headers,
  });
  response.end(isText ? ((reply.body as string | undefined) ?? '') : JSON.stringify(reply.body));
}

async function startStandIn(
  success: Success,
  route?: (hit: Hit) => Reply | undefined,
): Promise<GatewayStandIn> {
  const hits: Hit[] = [];
  const queue: Reply[] = [];
  const waiters: Array<{ count: number; done: () => void }> = [];
  const held: ServerResponse[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const hit: Hit = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: await readBody(request),
    };
    const routed = route?.(hit);
    if (routed === undefined) hits.push(hit);
    for (const waiter of [...waiters]) {
      if (hits.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done();
      }
    }
    const reply = routed ?? queue.shift() ?? success(hit, hits.length);
    if ('hold' in reply) {
      held.push(response);
      return;
    }
    answer(response, reply);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits,
    script: (...replies) => queue.push(...replies),
    waitForHits: (count) =>
      hits.length >= count ? Promise.resolve() : new Promise((done) => waiters.push({ count, done })),
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

/** A receiver of the generic webhook: 200 with `{id}` for each message. */
export function startWebhookStandIn(): Promise<GatewayStandIn> {
  return startStandIn((_hit, n) => ({ status: 200, body: { id: `w${n}` } }));
}

/** ntfy: a publish is answered with the message as JSON; errors are `{code, http, error, link}`. */
export function startNtfyStandIn(): Promise<GatewayStandIn> {
  return startStandIn((hit, n) => ({
    status: 200,
    body: { id: `ntfy${n}`, time: 1_700_000_000 + n, event: 'message', topic: hit.path.slice(1) },
  }));
}

/** ntfy's error body, as its server writes one. */
export function ntfyError(http: number, code: number, error: string): Reply {
  return { status: http, body: { code, http, error, link: 'https://ntfy.sh/docs/publish/#limitations' } };
}

/** A Slack incoming webhook: "ok" as text; errors are an error name as text. */
export function startSlackStandIn(): Promise<GatewayStandIn> {
  return startStandIn(() => ({ status: 200, body: 'ok' }));
}

/** A Discord webhook with `?wait=true`: the created message as JSON; errors are `{code, message}`. */
export function startDiscordStandIn(): Promise<GatewayStandIn> {
  return startStandIn((_hit, n) => ({ status: 200, body: { id: `11112222333344440${n}`, type: 0 } }));
}

/** Discord's 429: `retry_after` in seconds in the body, and the Retry-After header. */
export function discordRateLimit(seconds: number): Reply {
  return {
    status: 429,
    headers: { 'retry-after': String(Math.ceil(seconds)), 'x-ratelimit-scope': 'shared' },
    body: { message: 'You are being rate limited.', retry_after: seconds, global: false },
  };
}

/** The Telegram Bot API for one bot token and the chats it knows; getChat answers are never recorded as hits. */
export async function startTelegramStandIn(
  token: string,
  chats: readonly string[],
): Promise<GatewayStandIn & { readonly chatChecks: Hit[] }> {
  const chatChecks: Hit[] = [];
  const refusedToken = { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
  const standIn = await startStandIn(
    (hit, n) => {
      if (!hit.path.startsWith(`/bot${token}/`)) return refusedToken;
      return { status: 200, body: { ok: true, result: { message_id: n, date: 1_700_000_000 } } };
    },
    (hit) => {
      if (!hit.path.endsWith('/getChat')) return undefined;
      chatChecks.push(hit);
      if (!hit.path.startsWith(`/bot${token}/`)) return refusedToken;
      const chat = hit.query.get('chat_id') ?? '';
      if (chats.includes(chat))
        return { status: 200, body: { ok: true, result: { id: Number(chat), type: 'private' } } };
      return {
        status: 400,
        body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
      };
    },
  );
  return Object.assign(standIn, { chatChecks });
}

/** Telegram's 429, with `parameters.retry_after` in seconds. */
export function telegramRateLimit(seconds: number): Reply {
  return {
    status: 429,
    body: {
      ok: false,
      error_code: 429,
      description: `Too Many Requests: retry after ${seconds}`,
      parameters: { retry_after: seconds },
    },
  };
}
