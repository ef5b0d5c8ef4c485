import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import { createRuntime } from '../../../src/create-runtime.js';
import { openSessionStore } from '../../../src/store/index.js';
import { type GatewayStandIn, startWebhookStandIn } from '../../support/gateway-stand-ins.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const MODEL = {
  provider: 'openai-compatible',
  model: 'demo',
  baseURL: 'http://127.0.0.1:9/v1',
  apiKey: 'x',
} as const;

describe('a runtime built from a config with "notify"', () => {
  it('offers notify and notify_attachment, and without the section offers neither', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-runtime-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const config = parseConfig(
      { notify: { channels: { hook: { service: 'webhook', url: 'https://example.com/in' } } } },
      { baseDir: dir },
    );
    const withNotify = await createRuntime({
      model: MODEL,
      config,
      store: join(dir, 'a.db'),
      subagents: false,
    });
    const names = (await withNotify.options.registry.serve()).tools.map((tool) => tool.name);
    await withNotify.close();
    expect(names).toEqual(expect.arrayContaining(['notify', 'notify_attachment']));
    const without = await createRuntime({
      model: MODEL,
      config: parseConfig({}, { baseDir: dir }),
      store: join(dir, 'b.db'),
    });
    const plain = (await without.options.registry.serve()).tools.map((tool) => tool.name);
    await without.close();
    expect(plain).not.toContain('notify');
  });

  it('sends what an earlier process left pending in the outbox as soon as it starts', async () => {
    const hook: GatewayStandIn = await startWebhookStandIn();
    const dir = mkdtempSync(join(tmpdir(), 'notify-runtime-'));
    cleanup.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => hook.close(),
    );
    const db = join(dir, 'store.db');
    const earlier = openSessionStore({ path: db });
    const left = await earlier.enqueueOutbox({
      channel: 'hook',
      service: 'webhook',
      payload: { text: 'left behind' },
      idempotencyKey: 'k-1',
    });
    await earlier.close();
    const config = parseConfig(
      { notify: { channels: { hook: { service: 'webhook', url: `${hook.base}/in` } } } },
      { baseDir: dir },
    );
    const runtime = await createRuntime({ model: MODEL, config, store: db, subagents: false });
    cleanup.push(() => runtime.close());
    await hook.waitForHits(1);
    expect(JSON.parse(hook.hits[0]?.body.toString() ?? '')).toMatchObject({ text: 'left behind' });
    expect(hook.hits[0]?.headers['idempotency-key']).toBe('k-1');
    await runtime.close();
    cleanup.pop();
    const after = openSessionStore({ path: db });
    cleanup.push(() => after.close());
    expect(await after.getOutbox(left.id)).toMatchObject({ status: 'sent' });
  });
});
