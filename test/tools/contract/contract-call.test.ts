import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
import { type AppToolProvider, loadApp } from '../../../src/tools/apps/load-app.js';
import {
  ContractTestScope,
  contractAppCopy,
  directContext,
  startLoopbackApi,
} from '../../support/contract-api.js';
import { fixtureDocument, startFakeApi } from '../../support/contract-fake-api.js';

const TOKEN = 'tok-billing-4f9a2c';
const KEY = 'calendar-key-77aa';
const secrets = new Map([
  ['BILLING_TOKEN', TOKEN],
  ['CALENDAR_KEY', KEY],
]);

const scope = new ContractTestScope();
afterEach(() => scope.end());

async function appFor(
  name: string,
  answer?: Parameters<typeof startLoopbackApi>[0],
  extra: Record<string, unknown> = {},
): Promise<AppToolProvider> {
  await scope.api?.close();
  scope.api = await startLoopbackApi(answer);
  const copy = contractAppCopy(name, `${scope.api.url}${name === 'billing' ? '/v1' : ''}`, extra);
  scope.keep(copy);
  const app = await loadApp(copy.folder, { secrets });
  expect(app.loadError).toBeUndefined();
  return app;
}

const ctx = directContext;

function call(app: AppToolProvider, name: string, args: JsonObject) {
  return app.invoke(name, args, ctx());
}

describe('a contract tool sends the request its contract describes', () => {
  it('a snake_case API gets its own keys when the model sends camelCase, PascalCase and JSON text', async () => {
    const app = await appFor('billing');
    const result = await call(app, 'create_customer', {
      Email: 'ada@example.test',
      fullName: 'Ada',
      billingAddress: '{"lineOne": "1 Loop Rd", "PostalCode": "90210", "country_code": "US"}',
      invoiceSettings: { customFields: '[{"fieldName": "vat", "FieldValue": "GB1"}]' },
      idempotencyKey: 'k-1',
    });
    expect(result.isError).toBe(false);
    const [sent] = scope.api?.received ?? [];
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/customers');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      email: 'ada@example.test',
      full_name: 'Ada',
      billing_address: { line_one: '1 Loop Rd', postal_code: '90210', country_code: 'US' },
      invoice_settings: { custom_fields: [{ field_name: 'vat', field_value: 'GB1' }] },
    });
    expect(sent?.headers['idempotency-key']).toBe('k-1');
    expect(sent?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent?.headers['api-version']).toBe('2026-01-01');
    expect(sent?.headers['content-type']).toBe('application/json');
  });

  it('a camelCase API gets its own keys when the model sends snake_case; the API key rides in the query', async () => {
    const app = await appFor('calendar');
    const result = await call(app, 'insertEvent', {
      calendar_id: 'team/α b',
      send_updates: 'all',
      summary: 'Review',
      start: '{"date_time": "2026-12-07T10:00:00Z", "time_zone": "UTC"}',
      attendees: [{ email: 'b@example.test', display_name: 'B', response_status: null }],
    });
    expect(result.isError).toBe(false);
    const sent = scope.api?.received[0];
    const url = new URL(sent?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/calendars/team%2F%CE%B1%20b/events');
    expect(url.searchParams.get('sendUpdates')).toBe('all');
    expect(url.searchParams.get('key')).toBe(KEY);
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      summary: 'Review',
      start: { dateTime: '2026-12-07T10:00:00Z', timeZone: 'UTC' },
      attendees: [{ email: 'b@example.test', displayName: 'B', responseStatus: null }],
    });
  });

  it('query arguments follow their style: deepObject, comma-joined lists', async () => {
    const app = await appFor('billing');
    await call(app, 'list_customers', { email: 'a@b.test', created: { gte: 5, lte: 9 }, expand: ['x', 'y'] });
    const url = new URL(scope.api?.received[0]?.url ?? '', 'http://x');
    expect([...url.searchParams]).toEqual([
      ['email', 'a@b.test'],
      ['created[gte]', '5'],
      ['created[lte]', '9'],
      ['expand', 'x,y'],
    ]);
  });

  it('an undeclared key is refused before the network, with the nearest declared key', async () => {
    const app = await appFor('billing');
    const args = { emails: 'a@b.test', limit: 2 };
    const refusal = await app.preflight?.('list_customers', args, ctx());
    expect(refusal?.isError).toBe(true);
    expect(refusal?.content).toMatch(
      /^emails: unknown argument \(did you mean email\?\); list_customers takes: /,
    );
    const result = await call(app, 'list_customers', args);
    expect(result.notRun).toBe('refused_by_tool');
    expect(result.data).toMatchObject({
      code: 'invalid_arguments',
      problems: [{ path: 'emails', code: 'unknown_argument' }],
    });
    expect(scope.api?.received).toEqual([]);
  });

  it('a nested object sent as broken JSON text is refused with where it breaks, not as a wrong type', async () => {
    const app = await appFor('billing');
    const result = await call(app, 'create_customer', {
      email: 'a@b.test',
      billing_address: '{"line_one": "x"}}',
    });
    expect(result.data).toMatchObject({ problems: [{ path: 'billing_address', code: 'invalid_json' }] });
    expect(result.content).toMatch(/billing_address: is not valid JSON/);
    expect(scope.api?.received).toEqual([]);
  });

  it('a missing required field and a value outside the enum are named per field', async () => {
    const app = await appFor('billing');
    const result = await call(app, 'create_customer', { billing_address: { country_code: 'FR' } });
    const problems = (result.data as { problems: { path: string; code: string }[] }).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'email', code: 'required' }),
        expect.objectContaining({ path: 'billing_address.country_code', code: 'not_allowed' }),
      ]),
    );
    expect(scope.api?.received).toEqual([]);
  });

  it('a oneOf branch is read by the keys sent, and a self-containing shape takes nested levels', async () => {
    const app = await appFor('billing');
    const paid = await call(app, 'create_payment', {
      amount: 5,
      method: { bankAccount: '12', RoutingNumber: null },
    });
    expect(paid.isError).toBe(false);
    expect(JSON.parse(scope.api?.received[0]?.body ?? '')).toEqual({
      amount: 5,
      method: { bank_account: '12', routing_number: null },
    });
    const tree = {
      displayName: 'a',
      subCategories: [{ display_name: 'b', sub_categories: '[{"DisplayName": "c"}]' }],
    };
    const made = await call(app, 'post_categories', { body: tree });
    expect(made.isError).toBe(false);
    expect(JSON.parse(scope.api?.received[1]?.body ?? '')).toEqual({
      display_name: 'a',
      sub_categories: [{ display_name: 'b', sub_categories: [{ display_name: 'c' }] }],
    });
    const wrong = await call(app, 'post_categories', {
      body: { display_name: 'a', sub_categories: [{ nmae: 'x' }] },
    });
    expect(wrong.content).toMatch(/body\.sub_categories\[0\]\.nmae: unknown field/);
    expect(scope.api?.received).toHaveLength(2);
  });

  it("an HTTP error is a tool error naming the status and the API's message; the token never shows", async () => {
    const app = await appFor('billing', () => ({
      status: 402,
      body: { error: { message: `card declined for token ${TOKEN}`, type: 'card_error' } },
    }));
    const result = await call(app, 'create_customer', { email: 'a@b.test' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^POST \/v1\/customers failed with HTTP 402 Payment Required: card declined/,
    );
    expect(result.content).not.toContain(TOKEN);
    expect(result.data).toMatchObject({ status: 402, code: 'http_error' });
  });

  it('a GET is tried again once on a 503; a POST without an idempotency key is not', async () => {
    const app = await appFor('billing', () => ({ status: 503, body: { message: 'busy' } }));
    const read = await call(app, 'get_customer', { customer_id: 'c1' });
    expect(read.content).toMatch(/HTTP 503/);
    expect(scope.api?.received).toHaveLength(2);
    await call(app, 'create_customer', { email: 'a@b.test' });
    expect(scope.api?.received).toHaveLength(3);
  });

  it('an answer comes back whole after its status line; past maxResponseBytes the rest is not read', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: `cus_${i}`, email: `${i}@example.test` }));
    const app = await appFor('billing', () => ({ status: 200, body: { rows } }), {
      maxResponseBytes: 100_000,
    });
    const whole = await call(app, 'get_customer', { customer_id: 'c1' });
    expect(whole.content).toBe(`HTTP 200 OK\n${JSON.stringify({ rows })}`);
    const small = await appFor('billing', () => ({ status: 200, body: { rows } }), {
      maxResponseBytes: 1_000,
    });
    const cut = await call(small, 'get_customer', { customer_id: 'c1' });
    expect(cut.isError).toBe(false);
    const [head, ...rest] = cut.content.split('\n');
    expect(head).toBe('HTTP 200 OK');
    expect(rest.join('\n')).toMatch(
      /^\{"rows":\[\{"id":"cus_0".{900,}\n\[the answer went on past the 1,000 bytes read \(its "maxResponseBytes"\); the rest was not read/s,
    );
  });

  it('the headers that say how to go on (the next page, a new place, when to try again) are shown', async () => {
    const next = '<http://127.0.0.1/v1/customers?page=2>; rel="next"';
    const app = await appFor('billing', (r) =>
      r.method === 'GET'
        ? { status: 200, body: { data: [] }, headers: { link: next, 'x-other': 'not shown' } }
        : { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '30' } },
    );
    const listed = await call(app, 'list_customers', {});
    expect(listed.content).toBe(`HTTP 200 OK\nLink: ${next}\n{"data":[]}`);
    const busy = await call(app, 'create_customer', { email: 'a@b.test' });
    expect(busy.content).toBe(
      'POST /v1/customers failed with HTTP 429 Too Many Requests: slow down\nRetry-After: 30',
    );
  });

  it('a body that is not text is described, not shown; an empty one says so', async () => {
    const app = await appFor('billing', (r) =>
      r.method === 'DELETE' ? { status: 204 } : { status: 200, body: { ok: true } },
    );
    const gone = await call(app, 'delete_customer', { customer_id: 'c1' });
    expect(gone.content).toBe('HTTP 204 No Content (no body)');
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(2048, 7));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    const copy = contractAppCopy('billing', `http://127.0.0.1:${port}/v1`);
    scope.keep(copy);
    try {
      const png = await loadApp(copy.folder, { secrets });
      const result = await call(png, 'get_customer', { customer_id: 'c1' });
      expect(result.content).toBe(
        'HTTP 200 OK: a image/png body of 2,048 bytes, not shown (it is not text).',
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('with "idempotencyHeader", each POST sends a fresh key the model never sees, the same on its second try', async () => {
    let failFirst = true;
    const app = await appFor(
      'billing',
      (r) => {
        if (r.method === 'POST' && failFirst) {
          failFirst = false;
          return { status: 503, body: { message: 'busy' } };
        }
        return { status: 200, body: { id: 'cus_1' } };
      },
      { idempotencyHeader: 'Idempotency-Key' },
    );
    const create = (await app.listTools()).find((t) => t.name === 'create_customer');
    expect(
      Object.keys((create?.parameters as { properties?: object } | undefined)?.properties ?? {}),
    ).not.toContain('Idempotency-Key');
    const first = await call(app, 'create_customer', { email: 'a@b.test' });
    expect(first.content).toBe('HTTP 200 OK\n{"id":"cus_1"}');
    await call(app, 'create_customer', { email: 'b@b.test' });
    await call(app, 'get_customer', { customer_id: 'cus_1' });
    const keys = (scope.api?.received ?? []).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    const [tried, again, second, read] = keys;
    expect(tried).toMatch(/^[0-9a-f-]{36}$/);
    expect(again).toBe(tried);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).not.toBe(tried);
    expect(read).toBeUndefined();
  });

  it("Swagger's Petstore (YAML): snake_case calls reach it in its own keys, a text body as text, the API key from the config", async () => {
    const fake = await startFakeApi(await fixtureDocument('petstore3', 'openapi.yaml'), {
      basePath: '/api/v3',
    });
    scope.api = fake;
    const copy = contractAppCopy('petstore3', `${fake.url}/api/v3`);
    scope.keep(copy);
    const app = await loadApp(copy.folder, { secrets: new Map([['PETSTORE_KEY', 'pet-key-991']]) });
    const tools = new Map((await app.listTools()).map((t) => [t.name, t]));
    expect(
      Object.keys((tools.get('deletePet')?.parameters as { properties?: object })?.properties ?? {}),
    ).toEqual(['petId']);
    const added = await call(app, 'addPet', {
      name: 'Rex',
      photo_urls: ['a.png'],
      category: '{"Name": "dogs"}',
    });
    expect(added.isError).toBe(false);
    const found = await call(app, 'findPetsByStatus', { Status: 'sold' });
    expect(found.isError).toBe(false);
    const uploaded = await call(app, 'uploadFile', {
      pet_id: 7,
      additional_metadata: 'x',
      body: 'raw bytes',
    });
    expect(uploaded.isError).toBe(false);
    expect((await call(app, 'deletePet', { pet_id: 7 })).isError).toBe(false);
    expect(fake.refused).toEqual([]);
    const [add, find, upload, remove] = fake.received;
    expect(JSON.parse(add?.body ?? '')).toEqual({
      name: 'Rex',
      photoUrls: ['a.png'],
      category: { name: 'dogs' },
    });
    expect(find?.url).toBe('/api/v3/pet/findByStatus?status=sold');
    expect(upload?.url).toBe('/api/v3/pet/7/uploadImage?additionalMetadata=x');
    expect(upload?.headers['content-type']).toBe('application/octet-stream');
    expect(upload?.body).toBe('raw bytes');
    expect(remove?.headers.api_key).toBe('pet-key-991');
  });

  it('GET is read-only and safe, DELETE destructive, POST asks', async () => {
    const app = await appFor('billing');
    const tools = new Map((await app.listTools()).map((t) => [t.name, t]));
    expect(tools.get('get_customer')).toMatchObject({
      risk: 'safe',
      readOnly: true,
      requiresApproval: false,
    });
    expect(tools.get('delete_customer')).toMatchObject({ risk: 'destructive', requiresApproval: true });
    expect(tools.get('create_customer')).toMatchObject({ risk: 'caution', requiresApproval: true });
    expect(tools.get('create_customer')?.readOnly).toBeUndefined();
  });
});
