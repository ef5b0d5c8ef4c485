import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../../../core/json.js';
import { isPlainObject } from '../../../core/json.js';
import type { ToolResult } from '../../../core/tool.js';
import { boundedBody } from './bounded-body.js';
import type { ContractRequest } from './contract-request.js';
import type { ContractAuth } from './contract-settings.js';

/** Methods safe to send again after a transient failure. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** Statuses worth one more try of an idempotent request. */
const TRANSIENT = new Set([502, 503, 504]);
/** Tries of an idempotent request in all. */
const TRIES = 2;

/** What a call needs besides its request. */
export interface CallSettings {
  readonly tool: string;
  readonly auth?: ContractAuth;
  readonly headers: Readonly<Record<string, string>>;
  /** The config's secrets (name → value). */
  readonly secrets: ReadonlyMap<string, string>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly signal: AbortSignal;
  /** The header a POST or PATCH sends a fresh idempotency key in (the same key on each try). */
  readonly idempotencyHeader?: string;
  /** How many characters of a result the model is shown before the runtime keeps it whole by reference. */
  readonly resultChars?: number;
}

/** Thrown (and turned into a tool error) when auth names a secret the config does not hold. */
class MissingSecret extends Error {}

function secret(settings: CallSettings, name: string): string {
  const value = settings.secrets.get(name);
  if (value === undefined) throw new MissingSecret(name);
  return value;
}

/** `{{secret:NAME}}` in a configured header value filled from the config's secrets. */
function filled(settings: CallSettings, value: string): string {
  return value.replace(/\{\{secret:([^}]+)\}\}/g, (_, name: string) => secret(settings, name.trim()));
}

function authorized(
  request: ContractRequest,
  settings: CallSettings,
): { url: URL; headers: Record<string, string> } {
  const url = new URL(request.url);
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  for (const [name, value] of Object.entries(settings.headers))
    headers[name.toLowerCase()] = filled(settings, value);
  const auth = settings.auth;
  if (auth?.type === 'bearer') headers.authorization = `Bearer ${secret(settings, auth.secret)}`;
  else if (auth?.type === 'basic') {
    const pair = `${auth.username}:${secret(settings, auth.secret)}`;
    headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  } else if (auth?.type === 'apiKey' && auth.in === 'header')
    headers[auth.name.toLowerCase()] = secret(settings, auth.secret);
  else if (auth?.type === 'apiKey') url.searchParams.set(auth.name, secret(settings, auth.secret));
  return { url, headers };
}

/** The request's line as a result names it, without its query (an API key may ride there). */
function requestLine(request: ContractRequest): string {
  return `${request.method} ${request.url.pathname}`;
}

/**
 * Sends one request and shapes the answer for the model: the status line, then the body whole (JSON as
 * compact text, or one key per line when it is longer than the model is shown at once, so the runtime's
 * `tool_result_read` can find lines in it), read up to `maxResponseBytes`; the runtime cuts what the model
 * is shown and keeps the rest. An HTTP error is a tool error naming the status and the API's own message;
 * a deadline, a network failure or a redirect are tool errors too, never exceptions. Only idempotent
 * methods (and a POST or PATCH carrying an idempotency key) are tried again, once, on a transient
 * failure. Redirects are not followed: the request never goes to another host than the base URL's.
 */
export async function sendContractRequest(
  request: ContractRequest,
  settings: CallSettings,
): Promise<ToolResult> {
  let target: { url: URL; headers: Record<string, string> };
  try {
    target = authorized(request, settings);
  } catch (error) {
    if (!(error instanceof MissingSecret)) throw error;
    const content = `${settings.tool} was not run: its app's auth names the secret ${error.message}, which the config's "secrets" does not hold.`;
    return { content, isError: true, notRun: 'refused_by_tool', data: { code: 'missing_secret' } };
  }
  // A key the API remembers makes a POST safe to send again: it answers the second like the first.
  const keyed = settings.idempotencyHeader !== undefined && !IDEMPOTENT.has(request.method);
  if (keyed) target.headers[(settings.idempotencyHeader as string).toLowerCase()] = randomUUID();
  const tries = IDEMPOTENT.has(request.method) || keyed ? TRIES : 1;
  let last: ToolResult | undefined;
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    const deadline = AbortSignal.timeout(settings.timeoutMs);
    let response: Response;
    try {
      response = await fetch(target.url, {
        method: request.method,
        headers: target.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: 'manual',
        signal: AbortSignal.any([settings.signal, deadline]),
      });
    } catch (error) {
      if (settings.signal.aborted) throw error;
      const why = deadline.aborted
        ? `no answer within ${settings.timeoutMs} ms`
        : `the request failed (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message})`;
      last = { content: `${requestLine(request)}: ${why}.`, isError: true, data: { code: 'request_failed' } };
      continue;
    }
    const result = await shaped(response, request, settings);
    if (!TRANSIENT.has(response.status)) return result;
    last = result;
  }
  return last as ToolResult;
}

/** Media types whose body is text the model can read. */
const TEXT_TYPES =
  /^(text\/|application\/([\w.+-]+\+)?(json|xml|yaml|x-yaml|javascript|x-www-form-urlencoded)\b)/i;

async function shaped(
  response: Response,
  request: ContractRequest,
  settings: CallSettings,
): Promise<ToolResult> {
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const data = { status: response.status };
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const where = response.headers.get('location') ?? 'nowhere said';
    const content = `${requestLine(request)} answered ${status}, a redirect to ${where}, which is not followed.`;
    return { content, isError: true, data };
  }
  const type = response.headers.get('content-type') ?? '';
  const body = await boundedBody(response, settings.maxResponseBytes);
  const cut = body.whole
    ? ''
    : `\n[the answer went on past the ${settings.maxResponseBytes.toLocaleString('en-US')} bytes read (its "maxResponseBytes"); the rest was not read: ask for less, with a filter or a smaller page]`;
  if (type !== '' && !TEXT_TYPES.test(type) && body.bytes.length > 0) {
    const size = `${body.whole ? '' : 'over '}${body.bytes.length.toLocaleString('en-US')} bytes`;
    const content = `HTTP ${status}: a ${type.split(';')[0]} body of ${size}, not shown (it is not text).`;
    return { content, isError: response.status >= 400, data };
  }
  const text = body.bytes.toString('utf8');
  const value = body.whole ? parsed(text) : undefined;
  const told = toldHeaders(response);
  if (response.status >= 400) {
    const said = apiMessage(value) ?? text.trim();
    const content = `${requestLine(request)} failed with HTTP ${status}${said === '' ? '' : `: ${said}`}${told}${cut}`;
    return { content, isError: true, data: { ...data, code: 'http_error' } };
  }
  if (text.trim() === '') return { content: `HTTP ${status} (no body)${told}`, isError: false, data };
  return {
    content: `HTTP ${status}${told}\n${shown(value, text, settings.resultChars)}${cut}`,
    isError: false,
    data,
  };
}

/** Headers an answer carries that the model needs to go on (the next page, where a new thing is, when to try again), as shown. */
const TOLD_HEADERS = { link: 'Link', location: 'Location', 'retry-after': 'Retry-After' } as const;

function toldHeaders(response: Response): string {
  return Object.entries(TOLD_HEADERS)
    .map(([name, shown]) => {
      const value = response.headers.get(name);
      return value === null ? '' : `\n${shown}: ${value}`;
    })
    .join('');
}

/** The body as the model reads it: JSON compact, or one key per line when it is longer than is shown at once. */
function shown(value: JsonValue | undefined, text: string, resultChars: number | undefined): string {
  if (value === undefined) return text;
  const compact = JSON.stringify(value);
  return resultChars !== undefined && compact.length > resultChars ? JSON.stringify(value, null, 1) : compact;
}

function parsed(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** The message an API's error body carries, in its own words, where APIs usually put it. */
function apiMessage(body: JsonValue | undefined): string | undefined {
  if (typeof body === 'string') return body;
  if (!isPlainObject(body)) return undefined;
  for (const key of ['message', 'error_description', 'detail', 'title', 'error']) {
    const value = body[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (isPlainObject(value)) {
      const inner = apiMessage(value);
      if (inner !== undefined) return inner;
    }
  }
  return JSON.stringify(body);
}
