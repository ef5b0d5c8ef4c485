import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '../src/core/json.js';
import { contractBoundary } from '../src/tools/apps/contract/contract-arguments.js';
import { contractOperations } from '../src/tools/apps/contract/contract-operations.js';
import { loadApp } from '../src/tools/apps/load-app.js';
import type { BenchFigure } from './run.js';
import { median, percentile } from './stats.js';

/** Operations in the generated document. */
const OPERATIONS = 1_000;
/** Loads timed (the first pays for importing the parser and compiling the OpenAPI schema; p50 and p95 are of the rest). */
const LOADS = 16;
/** Argument checks timed per pass. */
const CHECKS = 200_000;

/**
 * A 1,000-operation OpenAPI 3.1 document in the shape of a large real API: per resource a list (query
 * filters, deepObject), a get, a create (a nested JSON body through shared components), an update and
 * a delete, with a component that contains itself.
 */
export function bigDocument(): JsonObject {
  const paths: JsonObject = {};
  const resources = OPERATIONS / 5;
  for (let r = 0; r < resources; r += 1) {
    const item = `resource_${r}`;
    const id = { name: `${item}_id`, in: 'path', required: true, schema: { type: 'string' } };
    const body = {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/record' } } },
    };
    paths[`/v1/${item}s`] = {
      get: {
        operationId: `list_${item}s`,
        summary: `List ${item}s.`,
        parameters: [
          { name: 'email', in: 'query', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          {
            name: 'created',
            in: 'query',
            style: 'deepObject',
            schema: { type: 'object', properties: { gte: { type: 'integer' } } },
          },
        ],
        responses: { '200': { description: 'ok' } },
      },
      post: {
        operationId: `create_${item}`,
        summary: `Create a ${item}.`,
        requestBody: body,
        responses: { '200': { description: 'ok' } },
      },
    };
    paths[`/v1/${item}s/{${item}_id}`] = {
      parameters: [id],
      get: { operationId: `get_${item}`, responses: { '200': { description: 'ok' } } },
      patch: {
        operationId: `update_${item}`,
        requestBody: body,
        responses: { '200': { description: 'ok' } },
      },
      delete: { operationId: `delete_${item}`, responses: { '200': { description: 'ok' } } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'generated', version: '1' },
    paths,
    components: {
      schemas: {
        address: {
          type: 'object',
          properties: {
            line_one: { type: 'string' },
            postal_code: { type: 'string' },
            country: { type: 'string', enum: ['US', 'GB'] },
          },
        },
        record: {
          type: 'object',
          required: ['email'],
          properties: {
            email: { type: 'string' },
            full_name: { type: ['string', 'null'] },
            billing_address: { $ref: '#/components/schemas/address' },
            tags: { type: 'array', items: { type: 'string' } },
            parent: { $ref: '#/components/schemas/node' },
          },
        },
        node: {
          type: 'object',
          title: 'node',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/components/schemas/node' } },
          },
        },
      },
    },
  };
}

/** Calls per second of `check` over CHECKS calls, the best of three passes. */
function rate(check: () => unknown): number {
  let best = 0;
  for (let pass = 0; pass < 3; pass += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CHECKS; i += 1) check();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    best = Math.max(best, CHECKS / seconds);
  }
  return Math.round(best);
}

export async function bench(): Promise<BenchFigure[]> {
  const root = mkdtempSync(join(tmpdir(), 'toolseam-contract-bench-'));
  try {
    const document = bigDocument();
    writeFileSync(join(root, 'api.json'), JSON.stringify(document));
    const loads = async (count: number, extra: Record<string, unknown>): Promise<[number[], number]> => {
      const manifest = {
        name: 'big',
        description: 'A generated API.',
        openapi: 'api.json',
        baseUrl: 'http://127.0.0.1:1',
      };
      writeFileSync(join(root, 'toolseam-app.json'), JSON.stringify({ ...manifest, ...extra }));
      const took: number[] = [];
      let listed = 0;
      for (let i = 0; i < count; i += 1) {
        const start = performance.now();
        listed = (await (await loadApp(root)).listTools()).length;
        took.push(performance.now() - start);
      }
      return [took, listed];
    };
    const [times, tools] = await loads(LOADS, {});
    const [unchecked] = await loads(6, { validate: false });
    const [first = Number.NaN, ...rest] = times;
    const warm = median(rest);
    const { dereference, parse, validate } = await import('@readme/openapi-parser');
    // As loads went before: the parser's validate (its schema compiled again each time), then the dereference.
    const before: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const start = performance.now();
      const parsed = await parse(join(root, 'api.json'));
      if (!(await validate(structuredClone(parsed))).valid)
        throw new Error('the generated document is not valid');
      await dereference(parsed);
      before.push(performance.now() - start);
    }
    const dereferenced = (await dereference(structuredClone(document) as never)) as unknown as JsonObject;
    const operation = contractOperations(dereferenced).find((o) => o.name === 'create_resource_7');
    if (operation === undefined) throw new Error('the generated document lost an operation');
    const boundary = contractBoundary(operation.name, operation.parameters);
    const plain = {
      email: 'a@b.test',
      full_name: 'Ada',
      billing_address: { line_one: '1 Rd', country: 'GB' },
      tags: ['x'],
    };
    const mixed = {
      Email: 'a@b.test',
      fullName: 'Ada',
      billingAddress: '{"lineOne": "1 Rd", "country": "GB"}',
      tags: '["x"]',
    };
    if (!boundary.read(plain).ok || !boundary.read(mixed).ok) throw new Error('a generated call was refused');
    const checks = rate(() => boundary.read(plain));
    return [
      { name: `contract: tools from a ${OPERATIONS}-operation document`, value: tools, unit: 'tools' },
      { name: 'contract: first load (parser imported, OpenAPI schema compiled)', value: first, unit: 'ms' },
      {
        name: 'contract: load, p50 of later loads',
        value: warm,
        unit: 'ms',
        target: '< 300 ms',
        ok: warm < 300,
      },
      { name: 'contract: load, p95 of later loads', value: percentile(rest, 0.95), unit: 'ms' },
      {
        name: "contract: the parser's validate + dereference (the load before), p50",
        value: median(before),
        unit: 'ms',
      },
      {
        name: 'contract: load without the schema check ("validate": false)',
        value: median(unchecked),
        unit: 'ms',
      },
      {
        name: 'contract: argument check, declared keys',
        value: checks,
        unit: 'calls/s',
        target: '> 200,000',
        ok: checks > 200_000,
      },
      {
        name: 'contract: argument check, other cases + JSON text',
        value: rate(() => boundary.read(mixed)),
        unit: 'calls/s',
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
