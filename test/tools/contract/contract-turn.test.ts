import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../../../src/testing/index.js';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import { contractAppCopy, type LoopbackApi, startLoopbackApi } from '../../support/contract-api.js';
import {
  callEnds,
  collect,
  type RuntimeHarness,
  startHarness,
  turnEnd,
} from '../../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
let api: LoopbackApi | undefined;
let remove: (() => void) | undefined;
afterEach(async () => {
  await h?.close();
  await api?.close();
  remove?.();
  h = undefined;
  api = undefined;
});

async function billingTurn(script: readonly ScriptTurn[]) {
  api = await startLoopbackApi((r) =>
    r.method === 'GET'
      ? { status: 404, body: { error: { message: 'No such customer: cus_9' } } }
      : { status: 200, body: { id: 'cus_1' } },
  );
  const copy = contractAppCopy('billing', `${api.url}/v1`);
  remove = copy.remove;
  const app = await loadApp(copy.folder, { secrets: new Map([['BILLING_TOKEN', 'tok-123456']]) });
  h = await startHarness({ providers: [app], script, approvals: { policy: 'auto' } });
  return collect(await (await h.runtime.session('s')).send('go'));
}

describe('a turn calls a contract tool through the runtime', () => {
  it('camelCase keys and a JSON-text nested object reach a snake_case API as it declares them', async () => {
    const args = {
      email: 'ada@example.test',
      fullName: 'Ada',
      billingAddress: '{"lineOne": "1 Loop Rd", "countryCode": "GB"}',
    };
    const events = await billingTurn([
      { toolCalls: [{ name: 'create_customer', arguments: args }] },
      { text: 'made' },
    ]);
    expect(callEnds(events).map((e) => [e.tool, e.isError])).toEqual([['create_customer', false]]);
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'made' });
    expect(api?.received).toHaveLength(1);
    expect(JSON.parse(api?.received[0]?.body ?? '')).toEqual({
      email: 'ada@example.test',
      full_name: 'Ada',
      billing_address: { line_one: '1 Loop Rd', country_code: 'GB' },
    });
  });

  it('a mistyped filter is refused before any request leaves; a 4xx comes back in the API’s words', async () => {
    const events = await billingTurn([
      { toolCalls: [{ name: 'list_customers', arguments: { emails: 'a@b.test', limit: 2 } }] },
      { toolCalls: [{ name: 'get_customer', arguments: { customerId: 'cus_9' } }] },
      { text: 'done' },
    ]);
    const [refused, missing] = callEnds(events);
    expect(refused?.isError).toBe(true);
    expect(refused?.content).toMatch(/emails: unknown argument \(did you mean email\?\)/);
    expect(missing?.content).toMatch(
      /^GET \/v1\/customers\/cus_9 failed with HTTP 404 Not Found: No such customer: cus_9/,
    );
    // Only the second call left the process.
    expect(api?.received.map((r) => r.url)).toEqual(['/v1/customers/cus_9']);
  });
});
