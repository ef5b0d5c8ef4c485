import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../../../src/testing/index.js';
import type { ScriptRequest } from '../../../src/testing/recorded-request.js';
import type { AppToolProvider } from '../../../src/tools/apps/load-app.js';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import { contractAppCopy } from '../../support/contract-api.js';
import { type FakeApi, fixtureDocument, startFakeApi } from '../../support/contract-fake-api.js';
import {
  callEnds,
  collect,
  type RuntimeHarness,
  startHarness,
  turnEnd,
} from '../../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
let api: FakeApi | undefined;
const removals: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  await api?.close();
  for (const remove of removals.splice(0)) remove();
  h = undefined;
  api = undefined;
});

async function appOn(name: string, baseUrl: string, secrets: [string, string][]): Promise<AppToolProvider> {
  const copy = contractAppCopy(name, baseUrl);
  removals.push(copy.remove);
  const app = await loadApp(copy.folder, { secrets: new Map(secrets) });
  expect(app.loadError).toBeUndefined();
  return app;
}

async function turn(app: AppToolProvider, script: readonly ScriptTurn[]) {
  h = await startHarness({ providers: [app], script, approvals: { policy: 'auto' } });
  return collect(await (await h.runtime.session('s')).send('go'));
}

describe('a model script against a fake API built from the same document', () => {
  it('camelCase calls reach a snake_case API in its own keys; a mistyped filter never leaves; a 4xx comes back', async () => {
    api = await startFakeApi(await fixtureDocument('billing', 'billing.json'), {
      basePath: '/v1',
      answer: (operation, request) =>
        operation === 'get_customer' && request.url.endsWith('/cus_9')
          ? { status: 404, body: { error: { message: 'No such customer: cus_9' } } }
          : undefined,
    });
    const app = await appOn('billing', `${api.url}/v1`, [['BILLING_TOKEN', 'tok-123456']]);
    const events = await turn(app, [
      {
        toolCalls: [
          {
            name: 'create_customer',
            arguments: {
              Email: 'ada@example.test',
              fullName: 'Ada',
              billingAddress: '{"lineOne": "1 Loop Rd", "countryCode": "GB"}',
              invoiceSettings: { customFields: [{ fieldName: 'vat', fieldValue: 'GB1' }] },
            },
          },
          { name: 'list_customers', arguments: { Email: 'ada@example.test', Created: { gte: 5 } } },
          { name: 'create_payment', arguments: { amount: 5, method: { bankAccount: '12' } } },
        ],
      },
      { toolCalls: [{ name: 'list_customers', arguments: { emails: 'a@b.test' } }] },
      { toolCalls: [{ name: 'get_customer', arguments: { customerId: 'cus_9' } }] },
      { text: 'done' },
    ]);
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'done' });
    const ends = callEnds(events);
    expect(ends.map((e) => [e.tool, e.isError])).toEqual([
      ['create_customer', false],
      ['list_customers', false],
      ['create_payment', false],
      ['list_customers', true],
      ['get_customer', true],
    ]);
    expect(ends[0]?.content).toBe('HTTP 200 OK\n{"ok":true,"operation":"create_customer"}');
    expect(ends[3]?.content).toMatch(/^emails: unknown argument \(did you mean email\?\)/);
    expect(ends[4]?.content).toBe(
      'GET /v1/customers/cus_9 failed with HTTP 404 Not Found: No such customer: cus_9',
    );
    // The API took every request that left (none carried a key it does not declare); the mistyped one never left.
    expect(api.refused).toEqual([]);
    expect(api.received.map((r) => `${r.method} ${new URL(r.url, 'http://x').pathname}`)).toEqual([
      'POST /v1/customers',
      'GET /v1/customers',
      'POST /v1/payments',
      'GET /v1/customers/cus_9',
    ]);
    expect(JSON.parse(api.received[0]?.body ?? '')).toEqual({
      email: 'ada@example.test',
      full_name: 'Ada',
      billing_address: { line_one: '1 Loop Rd', country_code: 'GB' },
      invoice_settings: { custom_fields: [{ field_name: 'vat', field_value: 'GB1' }] },
    });
  });

  it('snake_case calls reach a camelCase API in its own keys, a nested body sent as JSON text', async () => {
    api = await startFakeApi(await fixtureDocument('calendar', 'calendar.json'), { extraQuery: ['key'] });
    const app = await appOn('calendar', api.url, [['CALENDAR_KEY', 'key-123456']]);
    const events = await turn(app, [
      {
        toolCalls: [
          {
            name: 'insertEvent',
            arguments: {
              calendar_id: 'team',
              send_updates: 'all',
              summary: 'Review',
              start: '{"date_time": "2026-12-07T10:00:00Z", "time_zone": "UTC"}',
              attendees: '[{"email": "b@example.test", "display_name": "B"}]',
            },
          },
          { name: 'listEvents', arguments: { calendar_id: 'team', max_results: 5 } },
        ],
      },
      { text: 'booked' },
    ]);
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'booked' });
    expect(callEnds(events).map((e) => [e.tool, e.isError])).toEqual([
      ['insertEvent', false],
      ['listEvents', false],
    ]);
    expect(api.refused).toEqual([]);
    expect(JSON.parse(api.received[0]?.body ?? '')).toEqual({
      summary: 'Review',
      start: { dateTime: '2026-12-07T10:00:00Z', timeZone: 'UTC' },
      attendees: [{ email: 'b@example.test', displayName: 'B' }],
    });
    expect(new URL(api.received[1]?.url ?? '', 'http://x').searchParams.get('maxResults')).toBe('5');
  });

  it('snake_case calls reach the public Swagger Petstore (camelCase) in its keys; a mistyped filter never leaves; its 404 comes back in its words', async () => {
    api = await startFakeApi(await fixtureDocument('petstore3', 'openapi.yaml'), {
      basePath: '/api/v3',
      // Swagger's own server answers an unknown pet with this plain-text 404.
      answer: (operation, request) =>
        operation === 'getPetById' && request.url.endsWith('/pet/404')
          ? { status: 404, body: 'Pet not found' }
          : undefined,
    });
    const app = await appOn('petstore3', `${api.url}/api/v3`, [['PETSTORE_KEY', 'pet-key-991']]);
    const events = await turn(app, [
      {
        toolCalls: [
          {
            name: 'addPet',
            arguments: {
              name: 'Rex',
              photo_urls: ['a.png'],
              category: '{"id": 1, "name": "dogs"}',
              tags: '[{"id": 2, "name": "good"}]',
              status: 'available',
            },
          },
          { name: 'findPetsByStatus', arguments: { status: 'available' } },
          { name: 'updatePet', arguments: { id: 10, name: 'Rex', photo_urls: ['b.png'], status: 'sold' } },
        ],
      },
      { toolCalls: [{ name: 'findPetsByStatus', arguments: { statuses: 'sold' } }] },
      { toolCalls: [{ name: 'getPetById', arguments: { pet_id: 404 } }] },
      { text: 'done' },
    ]);
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'done' });
    const ends = callEnds(events);
    expect(ends.map((e) => [e.tool, e.isError])).toEqual([
      ['addPet', false],
      ['findPetsByStatus', false],
      ['updatePet', false],
      ['findPetsByStatus', true],
      ['getPetById', true],
    ]);
    expect(ends[0]?.content).toBe('HTTP 200 OK\n{"ok":true,"operation":"addPet"}');
    expect(ends[3]?.content).toMatch(/^statuses: unknown argument \(did you mean status\?\)/);
    expect(ends[4]?.content).toBe('GET /api/v3/pet/404 failed with HTTP 404 Not Found: Pet not found');
    // Four requests reached the API, none with a key its document lacks; the mistyped call is not among them.
    expect(api.refused).toEqual([]);
    expect(api.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v3/pet',
      'GET /api/v3/pet/findByStatus?status=available',
      'PUT /api/v3/pet',
      'GET /api/v3/pet/404',
    ]);
    expect(api.received.every((r) => r.headers.api_key === 'pet-key-991')).toBe(true);
    expect(JSON.parse(api.received[0]?.body ?? '')).toEqual({
      name: 'Rex',
      photoUrls: ['a.png'],
      category: { id: 1, name: 'dogs' },
      tags: [{ id: 2, name: 'good' }],
      status: 'available',
    });
    expect(JSON.parse(api.received[2]?.body ?? '')).toEqual({
      id: 10,
      name: 'Rex',
      photoUrls: ['b.png'],
      status: 'sold',
    });
  });

  it("camelCase calls reach Stripe's published snake_case document in its own keys; a mistyped key never leaves; a 4xx comes back", async () => {
    api = await startFakeApi(await fixtureDocument('stripe-subset', 'openapi.json'), {
      answer: (operation, request) =>
        operation === 'RetrieveCustomer' && request.url.startsWith('/v1/customers/cus_gone')
          ? {
              status: 404,
              body: { error: { type: 'invalid_request_error', message: 'No such customer: cus_gone' } },
            }
          : undefined,
    });
    const app = await appOn('stripe-subset', api.url, [['STRIPE_KEY', 'sk_test_123456']]);
    const events = await turn(app, [
      {
        toolCalls: [
          {
            name: 'AllCustomers',
            arguments: { limit: 3, startingAfter: 'cus_1', created: '{"gt": 1500000000}' },
          },
          {
            name: 'AllCharges',
            arguments: { endingBefore: 'ch_9', transferGroup: 'order_7', customer: 'cus_2' },
          },
          { name: 'AllBalanceTransactions', arguments: { availableOn: 1504224000, startingAfter: 'txn_3' } },
        ],
      },
      { toolCalls: [{ name: 'AllCharges', arguments: { customers: 'cus_2' } }] },
      { toolCalls: [{ name: 'RetrieveCustomer', arguments: { customer: 'cus_gone' } }] },
      { text: 'done' },
    ]);
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'done' });
    const ends = callEnds(events);
    expect(ends.map((e) => [e.tool, e.isError])).toEqual([
      ['AllCustomers', false],
      ['AllCharges', false],
      ['AllBalanceTransactions', false],
      ['AllCharges', true],
      ['RetrieveCustomer', true],
    ]);
    expect(ends[0]?.content).toBe('HTTP 200 OK\n{"ok":true,"operation":"AllCustomers"}');
    expect(ends[3]?.content).toMatch(/^customers: unknown argument \(did you mean customer\?\)/);
    expect(ends[4]?.content).toBe(
      'GET /v1/customers/cus_gone failed with HTTP 404 Not Found: No such customer: cus_gone',
    );
    // Four requests left, each in Stripe's own keys (the fake API refused none); the mistyped one never left.
    expect(api.refused).toEqual([]);
    expect(api.received).toHaveLength(4);
    const queries = api.received.map((r) => {
      const url = new URL(r.url, 'http://x');
      return [url.pathname, Object.fromEntries(url.searchParams)];
    });
    expect(queries).toEqual([
      ['/v1/customers', { limit: '3', starting_after: 'cus_1', 'created[gt]': '1500000000' }],
      ['/v1/charges', { ending_before: 'ch_9', transfer_group: 'order_7', customer: 'cus_2' }],
      ['/v1/balance/history', { available_on: '1504224000', starting_after: 'txn_3' }],
      ['/v1/customers/cus_gone', {}],
    ]);
    expect(api.received.every((r) => r.headers.authorization === 'Bearer sk_test_123456')).toBe(true);
  });

  it('the fake API itself refuses a key its document does not declare, so the checks above can fail', async () => {
    api = await startFakeApi(await fixtureDocument('billing', 'billing.json'), { basePath: '/v1' });
    const sent = await fetch(`${api.url}/v1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.test', fullName: 'Ada' }),
    });
    expect(sent.status).toBe(400);
    expect(api.refused).toEqual(['unknown key body.fullName']);
  });
});

/** 400 customers (about 40,000 characters as JSON), one of them with the address the model looks for. */
const customers = Array.from({ length: 400 }, (_, i) => ({
  id: `cus_${i}`,
  email: i === 250 ? 'needle@example.test' : `person${i}@example.test`,
  full_name: `Person ${i}`,
}));

const idIn = (r: ScriptRequest) =>
  /kept as \\?"(result-[0-9a-f]{8})/.exec(JSON.stringify(r.messages))?.[1] ?? '';
const read = (args: Record<string, unknown>): ScriptTurn => ({
  respond: (r) => ({ toolCalls: [{ name: 'tool_result_read', arguments: { id: idIn(r), ...args } }] }),
});

describe("a contract tool's long answer goes through the runtime's result bound", () => {
  it('is kept whole: the model gets its start and end with an id, and tool_result_read finds any line of it', async () => {
    api = await startFakeApi(await fixtureDocument('billing', 'billing.json'), {
      basePath: '/v1',
      answer: () => ({ status: 200, body: { data: customers, has_more: false } }),
    });
    const app = await appOn('billing', `${api.url}/v1`, [['BILLING_TOKEN', 'tok-123456']]);
    const events = await turn(app, [
      { toolCalls: [{ name: 'list_customers', arguments: { limit: 100 } }] },
      read({ pattern: 'needle@' }),
      read({ pattern: 'cus_399' }),
      { text: 'found' },
    ]);
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'found' });
    const [listed = '', needle = '', last = ''] = callEnds(events).map((e) => e.content ?? '');
    expect(listed.length).toBeLessThanOrEqual(20_000);
    expect(listed.startsWith('HTTP 200 OK\n{\n "data": [\n  {\n   "id": "cus_0",')).toBe(true);
    expect(listed).toMatch(/call tool_result_read with id "result-[0-9a-f]{8}"/);
    expect(listed.endsWith('"has_more": false\n}')).toBe(true);
    // The tool cut nothing itself: the whole answer is what the runtime kept.
    expect(listed).not.toContain('the rest was not read');
    expect(needle).toMatch(/^1 matching line\(s\):\n\d+ \(offset \d+\):\s+"email": "needle@example\.test"/);
    expect(last).toMatch(/"id": "cus_399"/);
    expect(api.received).toHaveLength(1);
  });
});
