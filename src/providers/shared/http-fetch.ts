import { Agent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { decodedBody, HttpResponse, ResponseHeaders } from './http-response.js';

/** The `fetch` signature the OpenAI and Anthropic SDKs accept. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Redirects followed at most, as `fetch` does. */
const MAX_REDIRECTS = 20;

/**
 * How long a request's connection may stay silent (no headers yet, or no more of the body) before it
 * is given up: undici's default for both, so a provider that stalls fails as it did under `fetch`.
 */
const SILENT_SOCKET_MS = 300_000;

/** How long a connection may take to be made: undici's default, so an unreachable host fails soon. */
const CONNECT_MS = 10_000;

/** How long an idle kept-alive connection is kept: undici's default, below the usual server's 5 s. */
const IDLE_SOCKET_MS = 4_000;

/** Headers that carry credentials: not sent on to another origin that a redirect leads to. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key'];

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Statuses whose response has no body (`body` is null, as `fetch` gives it). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Pools of kept-alive connections, one per protocol, made at their first request. */
function connectionPools(idleMs: number): (protocol: string) => Agent {
  let pools: { readonly http: Agent; readonly https: HttpsAgent } | undefined;
  return (protocol) => {
    if (pools === undefined) {
      // The agents' `timeout` is an idle connection's limit, and also a new socket's while it connects:
      // `exchange` lifts it there, for the connect limit to govern.
      const options = { keepAlive: true, timeout: idleMs, scheduling: 'lifo' as const };
      pools = { http: new Agent(options), https: new HttpsAgent(options) };
    }
    return protocol === 'https:' ? pools.https : pools.http;
  };
}

/** A request's body as bytes, null for none, undefined for a kind this client does not send itself. */
function payloadOf(body: RequestInit['body']): Buffer | Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return undefined;
}

/** A request's headers as Node takes them, names in lower case. */
function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  if (Array.isArray(headers)) {
    for (const [name, value] of headers) out[String(name).toLowerCase()] = String(value);
  } else if (typeof (headers as Headers).forEach === 'function') {
    (headers as Headers).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
  } else {
    for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  }
  return out;
}

/** Time limits of `createHttpFetch`, and (for tests) the host-name lookup its connections use. */
export interface HttpFetchOptions {
  /** Longest silence of a request's connection, headers or body (ms). */
  readonly silentMs?: number;
  /** Longest wait for a connection to be made, the name's lookup included (ms). */
  readonly connectMs?: number;
  /** How long a kept-alive connection may wait idle for the next request (ms). */
  readonly idleMs?: number;
  readonly lookup?: LookupFunction;
}

/** The limits `exchange` keeps to, and where its connections come from. */
interface Limits {
  readonly silentMs: number;
  readonly connectMs: number;
  readonly lookup?: LookupFunction;
  readonly agentFor: (protocol: string) => Agent;
}

/**
 * A timed-out connection's error: a lost connection, which the adapters retry; "timed out" in its words,
 * as undici's have, is how the SDKs tell a timeout from other failures.
 */
function timedOut(message: string): Error {
  return Object.assign(new Error(`timed out: ${message}`), { code: 'ETIMEDOUT' });
}

/**
 * One request and its answer's head. A stop (`signal`) before the answer fails the request with the
 * signal's reason, as `fetch` does; after it, the body fails with that reason. Any other failure
 * (to connect, to send, a silence too long) is `TypeError('fetch failed')` with the socket's error as
 * its cause, as undici's is.
 */
function exchange(
  url: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  payload: Buffer | Uint8Array | null,
  signal: AbortSignal | undefined,
  limits: Limits,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const { lookup } = limits;
    const request = send(url, {
      method,
      headers,
      agent: limits.agentFor(url.protocol),
      ...(lookup ? { lookup } : {}),
    });
    let answer: IncomingMessage | undefined;
    request.once('socket', (socket) => {
      if (!socket.connecting) return;
      // The agent's idle limit stays off until connected; Node sets the request's silence limit then.
      socket.setTimeout(0);
      const error = timedOut(`could not connect to ${url.host} within ${limits.connectMs / 1000} s`);
      const timer = setTimeout(() => request.destroy(error), limits.connectMs);
      const stop = (): void => clearTimeout(timer);
      socket.once('connect', stop);
      request.once('close', stop);
    });
    const onAbort = (): void => {
      const reason: unknown = signal?.reason;
      answer?.destroy(reason as Error);
      request.destroy(reason as Error);
    };
    const release = (): void => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    request.setTimeout(limits.silentMs, () => {
      const error = timedOut(`${url.origin} sent nothing for ${limits.silentMs / 1000} s`);
      answer?.destroy(error);
      request.destroy(error);
    });
    request.once('response', (response) => {
      answer = response;
      response.once('close', release);
      resolve(response);
    });
    request.once('error', (error) => {
      if (answer !== undefined) return;
      release();
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    });
    request.end(payload ?? undefined);
  });
}

/**
 * Where a redirect from `from` to `location` leads; a `TypeError('fetch failed')` saying why, as
 * `fetch` fails, when it is not followed (refused by the request, one too many, not a web address).
 */
function redirectTarget(
  from: URL,
  status: number,
  location: string,
  mode: RequestInit['redirect'],
  hops: number,
): URL {
  const refuse = (why: string): never => {
    throw new TypeError('fetch failed', {
      cause: new Error(`${from.href} answered ${status}, not followed: ${why}`),
    });
  };
  if (!URL.canParse(location, from.href)) refuse(`a Location that is not a URL: ${location}`);
  const next = new URL(location, from);
  if (mode === 'error') refuse('the request refuses redirects');
  if (hops >= MAX_REDIRECTS) refuse(`more than ${MAX_REDIRECTS} redirects`);
  if (next.protocol !== 'http:' && next.protocol !== 'https:') refuse(`a redirect to ${next.href}`);
  return next;
}

/**
 * `fetch` over Node's own HTTP client (`node:http`, `node:https`), for the providers' SDKs, which accept
 * a `fetch` of their own. Node's `fetch` (undici) spends on every request and every chunk of a streamed
 * answer what a chat turn feels: its Request and Headers objects, web streams and their promises, an
 * abort signal per request; with 48 tools on a loopback server it cost ~0.4 ms a turn more (2 requests).
 * Bodies of bytes or text, http and https, redirects, gzip/deflate/br answers, stops and undici's time
 * limits (10 s to connect, 300 s of silence) behave as with `fetch`; a `Request` object, another kind of
 * body or URL is handed to Node's `fetch` itself.
 */
export function createHttpFetch(options: HttpFetchOptions = {}): FetchLike {
  const limits: Limits = {
    silentMs: options.silentMs ?? SILENT_SOCKET_MS,
    connectMs: options.connectMs ?? CONNECT_MS,
    agentFor: connectionPools(options.idleMs ?? IDLE_SOCKET_MS),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  };
  return async (input, init = {}) => {
    if (typeof input !== 'string' && !(input instanceof URL)) return fetch(input, init);
    let url = new URL(input);
    let payload = payloadOf(init.body);
    if (payload === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return fetch(input, init);
    const signal = init.signal ?? undefined;
    let method = (init.method ?? 'GET').toUpperCase();
    const headers = headerRecord(init.headers);
    headers['accept'] ??= '*/*';
    headers['accept-encoding'] ??= 'gzip, deflate, br';
    for (let hops = 0; ; hops += 1) {
      signal?.throwIfAborted();
      // As fetch: a body's length is always sent, and 0 for a POST, PUT or PATCH without one.
      if (payload !== null) headers['content-length'] = String(payload.byteLength);
      else if (BODY_METHODS.has(method)) headers['content-length'] = '0';
      else delete headers['content-length'];
      const response = await exchange(url, method, headers, payload, signal, limits);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(status) || location === undefined || init.redirect === 'manual') {
        const body = method === 'HEAD' || NULL_BODY_STATUSES.has(status) ? null : decodedBody(response);
        if (body === null) response.resume();
        const head = new ResponseHeaders(response.rawHeaders);
        return new HttpResponse(
          status,
          response.statusMessage ?? '',
          head,
          url.href,
          hops > 0,
          body,
        ) as unknown as Response;
      }
      response.resume();
      const next = redirectTarget(url, status, location, init.redirect, hops);
      // As fetch: a 303 (and a 301 or 302 after a POST) is followed with a GET and no body.
      if (
        (status === 303 && method !== 'HEAD') ||
        ((status === 301 || status === 302) && method === 'POST')
      ) {
        method = 'GET';
        payload = null;
        delete headers['content-type'];
      }
      if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
      url = next;
    }
  };
}

/** `fetch` over Node's HTTP client with undici's time limits (see `createHttpFetch`). */
export const httpFetch = createHttpFetch();
