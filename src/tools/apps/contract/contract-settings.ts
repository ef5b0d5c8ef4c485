import type { JsonObject } from '../../../core/json.js';
import { isPlainObject } from '../../../core/json.js';

/** How a contract app authenticates: each secret named from the config's `secrets`, never written in the manifest. */
export type ContractAuth =
  | { readonly type: 'bearer'; readonly secret: string }
  | {
      readonly type: 'apiKey';
      readonly in: 'header' | 'query';
      readonly name: string;
      readonly secret: string;
    }
  | { readonly type: 'basic'; readonly username: string; readonly secret: string };

/** What a contract app's manifest says beyond its name and description. */
export interface ContractSettings {
  /** The OpenAPI document: a path inside the app folder, or an http(s) URL. */
  readonly openapi: string;
  /** Where requests go; wins over the document's `servers`. */
  readonly baseUrl?: string;
  readonly auth?: ContractAuth;
  /** Headers every request carries (API versions and the like); values may name secrets as {{secret:NAME}}. */
  readonly headers: Readonly<Record<string, string>>;
  /** Which operations become tools: globs over operationId (or the method + path name); absent: all. */
  readonly operations?: readonly string[];
  /** Deadline of one request, in milliseconds (default 30,000). */
  readonly timeoutMs: number;
  /**
   * Most bytes of an answer read (default 2,000,000); the rest is not read. What is read comes back whole:
   * the runtime shows the model the start and end of a long result and keeps it whole for `tool_result_read`.
   */
  readonly maxResponseBytes: number;
  /** Check the document against the OpenAPI schema and its own paths before use (default true). */
  readonly validate: boolean;
  /**
   * Hosts (`host` or `host:port`) an external `$ref` may be fetched from, besides the document's own origin
   * when it is a URL. A document in the app folder may refer to files in that folder only.
   */
  readonly refHosts: readonly string[];
  /**
   * The header that carries an idempotency key (e.g. `Idempotency-Key`): each call of a POST or PATCH
   * operation sends a fresh one, the same on each try, so such a call is tried again like a PUT.
   */
  readonly idempotencyHeader?: string;
}

/** The default deadline of one request. */
export const DEFAULT_CONTRACT_TIMEOUT_MS = 30_000;
/** The default bound on the bytes of an answer read. */
export const DEFAULT_RESPONSE_BYTES = 2_000_000;

/** Reads the contract part of a manifest; throws a sentence saying what to fix. */
export function contractSettings(data: JsonObject): ContractSettings {
  const fail = (what: string): never => {
    throw new Error(what);
  };
  const openapi = data.openapi;
  if (typeof openapi !== 'string' || openapi.trim() === '')
    fail('"openapi" must name the OpenAPI document (a file in the app folder or a URL)');
  const baseUrl = data.baseUrl;
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl))) {
    fail('"baseUrl" must be an http(s) URL');
  }
  const headers = data.headers ?? {};
  if (!isPlainObject(headers) || !Object.values(headers).every((v) => typeof v === 'string')) {
    fail('"headers" must map header names to text');
  }
  const operations = data.operations;
  if (
    operations !== undefined &&
    !(Array.isArray(operations) && operations.every((o) => typeof o === 'string'))
  ) {
    fail('"operations" must be a list of globs over operation ids');
  }
  if (data.maxResponseChars !== undefined) {
    fail(
      '"maxResponseChars" is now "maxResponseBytes": the most bytes of an answer read (the runtime cuts what the model is shown)',
    );
  }
  const refHosts = data.refHosts ?? [];
  if (
    !(Array.isArray(refHosts) && refHosts.every((h) => typeof h === 'string' && /^[^/\\s:]+(:\d+)?$/.test(h)))
  ) {
    fail(
      '"refHosts" must be a list of host names (with ":port" when not the default), such as "api.example.com"',
    );
  }
  const idempotency = data.idempotencyHeader;
  if (
    idempotency !== undefined &&
    (typeof idempotency !== 'string' || !/^[A-Za-z0-9-]+$/.test(idempotency))
  ) {
    fail('"idempotencyHeader" must be a header name, such as "Idempotency-Key"');
  }
  const number = (key: string, fallback: number): number => {
    const value = data[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
      fail(`"${key}" must be a positive whole number`);
    return value as number;
  };
  return {
    openapi: (openapi as string).trim(),
    ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
    ...(data.auth === undefined ? {} : { auth: readAuth(data.auth, fail) }),
    headers: headers as Record<string, string>,
    ...(operations === undefined ? {} : { operations: operations as string[] }),
    timeoutMs: number('timeoutMs', DEFAULT_CONTRACT_TIMEOUT_MS),
    maxResponseBytes: number('maxResponseBytes', DEFAULT_RESPONSE_BYTES),
    validate: data.validate !== false,
    refHosts: refHosts as string[],
    ...(typeof idempotency === 'string' ? { idempotencyHeader: idempotency } : {}),
  };
}

function readAuth(value: unknown, fail: (what: string) => never): ContractAuth {
  if (!isPlainObject(value) || typeof value.secret !== 'string') {
    return fail('"auth" needs a "type" and the "secret" (a name under the config\'s "secrets") it sends');
  }
  const secret = value.secret;
  if (value.type === 'bearer') return { type: 'bearer', secret };
  if (value.type === 'apiKey') {
    const where = value.in ?? 'header';
    if ((where !== 'header' && where !== 'query') || typeof value.name !== 'string') {
      return fail('an "apiKey" auth needs "name" (the header or query key) and "in" ("header" or "query")');
    }
    return { type: 'apiKey', in: where, name: value.name, secret };
  }
  if (value.type === 'basic') {
    if (typeof value.username !== 'string') return fail('a "basic" auth needs a "username"');
    return { type: 'basic', username: value.username, secret };
  }
  return fail('"auth.type" is one of "bearer", "apiKey", "basic"');
}

/** Whether `name` matches the glob `pattern` (`*` any run, `?` one character). */
export function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${source}$`).test(name);
}
