import { join } from 'node:path';
import type { ApiAnswer, LoopbackApi, ReceivedRequest } from './contract-api.js';
import { contractFixture, startLoopbackApi } from './contract-api.js';

type Node = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** One operation of the document, as the fake API routes to it. */
interface Route {
  readonly id: string;
  readonly method: string;
  readonly segments: readonly string[];
  readonly query: ReadonlySet<string>;
  readonly body: unknown;
}

/** A loopback API built from an OpenAPI document: it answers only what the document declares. */
export interface FakeApi extends LoopbackApi {
  /** Each request it refused (400 or 404), with why: a key or a route the document does not have. */
  readonly refused: string[];
}

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function routesOf(document: Node): Route[] {
  const routes: Route[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Node)) {
    if (!isNode(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isNode(operation)) continue;
      const parameters = [
        ...((item.parameters as Node[] | undefined) ?? []),
        ...((operation.parameters as Node[] | undefined) ?? []),
      ];
      const content = isNode(operation.requestBody) ? operation.requestBody.content : undefined;
      const media = isNode(content) ? Object.values(content)[0] : undefined;
      routes.push({
        id: typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`,
        method: method.toUpperCase(),
        segments: path.split('/').filter((s) => s !== ''),
        query: new Set(parameters.filter((p) => p.in === 'query').map((p) => String(p.name))),
        body: isNode(media) ? media.schema : undefined,
      });
    }
  }
  return routes;
}

/**
 * The keys of `value` that `schema` does not declare, spelled exactly (an API takes its own case only),
 * at every depth, and the required ones left out. An object whose schema declares no properties, or
 * allows others, takes any key.
 */
function keyProblems(value: unknown, schema: unknown, at: string): string[] {
  if (!isNode(schema)) return [];
  const branches = [schema, ...((schema.oneOf ?? schema.anyOf ?? schema.allOf ?? []) as unknown[])].filter(
    isNode,
  );
  if (Array.isArray(value)) {
    const items = branches.map((b) => b.items).find(isNode);
    return value.flatMap((item, i) => keyProblems(item, items, `${at}[${i}]`));
  }
  if (!isNode(value)) return [];
  const declared = new Map<string, unknown>();
  for (const b of branches)
    if (isNode(b.properties)) for (const [k, v] of Object.entries(b.properties)) declared.set(k, v);
  if (
    declared.size === 0 ||
    branches.some((b) => b.additionalProperties !== undefined && b.additionalProperties !== false)
  )
    return [];
  const problems = Object.entries(value).flatMap(([key, item]) =>
    declared.has(key) ? keyProblems(item, declared.get(key), `${at}.${key}`) : [`unknown key ${at}.${key}`],
  );
  const required = branches.flatMap((b) => (Array.isArray(b.required) ? (b.required as string[]) : []));
  // a union's branches each require their own keys: only the keys every branch requires are checked
  const always = schema.oneOf || schema.anyOf ? [] : required;
  for (const key of always) if (!(key in value)) problems.push(`missing ${at}.${key}`);
  return problems;
}

/**
 * Starts a loopback API from a dereferenced OpenAPI document, under `basePath`: a request to a path or
 * method the document lacks is a 404, a query key or a body key it does not declare (in its exact case) or
 * a required body key left out is a 400 naming it, as a real API would answer. `answer` gives the answer
 * to a request that fits (default: 200 `{ok: true, operation}`). `extraQuery` names query keys the app's
 * config adds (an API key).
 */
export async function startFakeApi(
  document: Node,
  options: {
    basePath?: string;
    extraQuery?: readonly string[];
    answer?: (operation: string, request: ReceivedRequest) => ApiAnswer | undefined;
  } = {},
): Promise<FakeApi> {
  const routes = routesOf(document);
  const base = (options.basePath ?? '').split('/').filter((s) => s !== '');
  const refused: string[] = [];
  const refuse = (status: number, why: string): ApiAnswer => {
    refused.push(why);
    return { status, body: { error: { message: why } } };
  };
  const api = await startLoopbackApi((request) => {
    const url = new URL(request.url, 'http://fake');
    const segments = url.pathname.split('/').filter((s) => s !== '');
    const own = segments.slice(base.length);
    const route = routes.find(
      (r) =>
        r.method === request.method &&
        r.segments.length === own.length &&
        r.segments.every((s, i) => s.startsWith('{') || s === own[i]),
    );
    if (route === undefined || base.some((s, i) => segments[i] !== s))
      return refuse(404, `no operation ${request.method} ${url.pathname}`);
    for (const key of url.searchParams.keys()) {
      const name = key.replace(/\[.*$/, '');
      if (!route.query.has(name) && !(options.extraQuery ?? []).includes(name))
        return refuse(400, `unknown query parameter ${key}`);
    }
    if (request.body !== '' && /json/.test(String(request.headers['content-type']))) {
      const problems = keyProblems(JSON.parse(request.body), route.body, 'body');
      if (problems.length > 0) return refuse(400, problems.join('; '));
    }
    return options.answer?.(route.id, request) ?? { status: 200, body: { ok: true, operation: route.id } };
  });
  return Object.assign(api, { refused });
}

/** A contract fixture's document with its `$ref`s followed, for a fake API to answer by. */
export async function fixtureDocument(name: string, file: string): Promise<Node> {
  const { dereference } = await import('@readme/openapi-parser');
  return (await dereference(join(contractFixture(name), file))) as unknown as Node;
}
