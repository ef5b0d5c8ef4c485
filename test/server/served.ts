import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { OPENAPI_DOCUMENT } from '../../src/server/openapi-document.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { type HarnessOptions, type RuntimeHarness, startHarness } from '../support/runtime-harness.js';

/** A runtime on the stand-in and a real SQLite file, served over HTTP on an ephemeral loopback port. */
export interface Served extends RuntimeHarness {
  readonly server: RunningServer;
  /** `http://127.0.0.1:PORT` */
  readonly base: string;
  /** fetch on the server's path, with a JSON body when `json` is given. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

/** Starts a served runtime; `close` stops the server, the runtime and the stand-in. */
export async function startServed(
  options: HarnessOptions & { host?: string; pollMs?: number; keepAliveMs?: number; webRoot?: string } = {},
): Promise<Served> {
  const { host, pollMs, keepAliveMs, webRoot, ...rest } = options;
  const harness = await startHarness(rest);
  const server = await startServer({
    runtime: harness.runtime,
    port: 0,
    version: 'test',
    ...(host ? { host } : {}),
    ...(pollMs ? { pollMs } : {}),
    ...(keepAliveMs ? { keepAliveMs } : {}),
    ...(webRoot ? { webRoot } : {}),
  });
  const base = `http://127.0.0.1:${server.port}`;
  return {
    ...harness,
    server,
    base,
    api: (path, init = {}) => apiCall(base, path, init),
    async close() {
      await server.shutdown(2_000);
      await harness.close();
    },
  };
}

/** fetch `base + path`, sending `json` as the body. */
export function apiCall(
  base: string,
  path: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<Response> {
  const { json, ...rest } = init;
  if (json === undefined) return fetch(`${base}${path}`, rest);
  return fetch(`${base}${path}`, {
    method: 'POST',
    ...rest,
    headers: { 'content-type': 'application/json', ...(rest.headers as Record<string, string> | undefined) },
    body: JSON.stringify(json),
  });
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
ajv.addSchema({ $id: 'https://toolseam.invalid/openapi.json', components: OPENAPI_DOCUMENT.components });

/** Asserts `value` is valid against the OpenAPI document's component schema `name`. */
export function expectSchema(name: string, value: unknown): void {
  const validate = ajv.getSchema(`https://toolseam.invalid/openapi.json#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name} in the OpenAPI document`);
  const ok = validate(value);
  expect(ok ? [] : validate.errors, `${name}: ${JSON.stringify(value).slice(0, 400)}`).toEqual([]);
}

/** Reads a JSON response, checks its status and its body against schema `name`, and returns the body. */
export async function expectJson<T = Record<string, unknown>>(
  response: Response,
  status: number,
  name: string,
): Promise<T> {
  const body = (await response.json()) as T;
  expect(response.status, JSON.stringify(body)).toBe(status);
  expectSchema(name, body);
  return body;
}

/** An error response: the status, the code, and the shape every error has. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
): Promise<{ error: Record<string, unknown> }> {
  const body = await expectJson<{ error: Record<string, unknown> }>(response, status, 'Error');
  expect(body.error.code).toBe(code);
  expect(String(body.error.message)).not.toMatch(/\n\s+at /); // no stack trace
  return body;
}
