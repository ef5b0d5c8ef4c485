import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore, type SqliteSessionStore } from '../../../src/store/index.js';
import { guardedFetch, OutboundRefused } from '../../../src/tools/notify/guarded-fetch.js';
import { createNotifier } from '../../../src/tools/notify/notifier.js';
import { parseNotifyConfig } from '../../../src/tools/notify/notify-config.js';
import {
  type GatewayStandIn,
  startSlackStandIn,
  startWebhookStandIn,
} from '../../support/gateway-stand-ins.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A settable clock shared by the store and the notifier. */
function clock(start = 1_800_000_000_000) {
  let at = start;
  return {
    now: () => at,
    set(ms: number) {
      at = ms;
    },
  };
}

async function setUp(options: { maxAttempts?: number } = {}) {
  const hook = await startWebhookStandIn();
  const slack = await startSlackStandIn();
  const dir = mkdtempSync(join(tmpdir(), 'notify-outbox-'));
  const time = clock();
  const store = openSessionStore({ path: join(dir, 'store.db'), now: time.now });
  const config = parseNotifyConfig({
    channels: {
      hook: { service: 'webhook', url: `${hook.base}/in` },
      team: { service: 'slack', url: { env: 'SLACK_URL' } },
    },
    default: 'hook',
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
  });
  const notifier = createNotifier({
    config,
    store,
    env: { SLACK_URL: slack.base },
    now: time.now,
    owner: 'me',
  });
  cleanup.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => store.close(),
    () => hook.close(),
    () => slack.close(),
    () => notifier.close(),
  );
  return { hook, slack, store, time, notifier, dir };
}

describe('the outbox', () => {
  it('writes a message before sending it and marks it sent with the receipt', async () => {
    const { notifier, store, hook } = await setUp();
    const result = await notifier.send({ text: 'done', origin: 'automation:daily' });
    expect(result).toMatchObject({ status: 'sent', channel: 'hook', receipt: 'w1' });
    const [row] = await store.listOutbox();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, origin: 'automation:daily', receipt: 'w1' });
    expect(hook.hits[0]?.headers['idempotency-key']).toBe(row?.idempotencyKey);
  });

  it("honours a 429's Retry-After: nothing is sent before it, and the message goes after", async () => {
    const { notifier, store, slack, time } = await setUp();
    const start = time.now();
    slack.script({ status: 429, headers: { 'retry-after': '7' }, body: 'rate_limited' });
    const result = await notifier.send({ channel: 'team', text: 'hello' });
    expect(result).toMatchObject({ status: 'queued', retryAt: new Date(start + 7000).toISOString() });
    time.set(start + 6999);
    expect(await notifier.deliverDue()).toBe(0);
    expect(slack.hits).toHaveLength(1);
    time.set(start + 7000);
    expect(await notifier.deliverDue()).toBe(1);
    expect(slack.hits).toHaveLength(2);
    expect(await store.listOutbox()).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  it('never retries a refusal', async () => {
    const { notifier, store, slack, time } = await setUp();
    slack.script({ status: 404, body: 'channel_not_found' });
    const result = await notifier.send({ channel: 'team', text: 'hello' });
    expect(result).toMatchObject({
      status: 'refused',
      refusal: { message: expect.stringContaining('channel_not_found') },
    });
    time.set(time.now() + 86_400_000);
    expect(await notifier.deliverDue()).toBe(0);
    expect(slack.hits).toHaveLength(1);
    expect(await store.listOutbox()).toMatchObject([{ status: 'refused', attempts: 1 }]);
  });

  it('a message its dry run refuses is never written nor sent', async () => {
    const { notifier, store, slack } = await setUp();
    const result = await notifier.send({ channel: 'team', text: 'x'.repeat(40_001) });
    expect(result).toMatchObject({ status: 'refused', refusal: { code: 'text_too_long' } });
    expect(await notifier.send({ channel: 'teem', text: 'x' })).toMatchObject({
      status: 'refused',
      refusal: { code: 'unknown_channel', hints: ['Did you mean "team"?'] },
    });
    expect(await store.listOutbox()).toEqual([]);
    expect(slack.hits).toHaveLength(0);
  });

  it('backs off on 5xx and gives up after the configured attempts', async () => {
    const { notifier, store, hook, time } = await setUp({ maxAttempts: 2 });
    hook.script({ status: 502, body: 'bad gateway' }, { status: 503, body: 'unavailable' });
    const first = await notifier.send({ text: 'x' });
    expect(first).toMatchObject({ status: 'queued', retryAt: new Date(time.now() + 2000).toISOString() });
    time.set(time.now() + 2000);
    await notifier.deliverDue();
    expect(await store.listOutbox()).toMatchObject([
      { status: 'failed', attempts: 2, lastError: expect.stringContaining('503') },
    ]);
    time.set(time.now() + 3_600_000);
    expect(await notifier.deliverDue()).toBe(0);
    expect(hook.hits).toHaveLength(2);
  });

  it('a file removed while its message waited is refused at the next attempt, not tried again', async () => {
    const { notifier, store, hook, time, dir } = await setUp();
    const path = join(dir, 'report.txt');
    writeFileSync(path, 'numbers');
    hook.script({ status: 503, body: 'busy' });
    const attachment = { path, name: 'report.txt', size: 7, type: 'text/plain' };
    expect(await notifier.send({ text: 'report', attachment })).toMatchObject({ status: 'queued' });
    expect(JSON.parse(hook.hits[0]?.body.toString() ?? '').attachment).toMatchObject({
      name: 'report.txt',
      base64: Buffer.from('numbers').toString('base64'),
    });
    rmSync(path);
    time.set(time.now() + 60_000);
    expect(await notifier.deliverDue()).toBe(0);
    expect(await store.listOutbox()).toMatchObject([
      { status: 'refused', lastError: expect.stringContaining('no longer there') },
    ]);
    expect(hook.hits).toHaveLength(1);
  });

  it('a message one process holds is not taken by another until its lease runs out', async () => {
    const { store, time, dir } = await setUp();
    const other: SqliteSessionStore = openSessionStore({ path: join(dir, 'store.db'), now: time.now });
    cleanup.push(() => other.close());
    const row = await store.enqueueOutbox({ channel: 'hook', service: 'webhook', payload: { text: 'x' } });
    expect(await store.claimOutbox({ owner: 'a', leaseMs: 60_000 })).toHaveLength(1);
    expect(await other.claimOutbox({ owner: 'b', leaseMs: 60_000 })).toEqual([]);
    expect(await other.settleOutbox(row.id, 'b', { status: 'sent' })).toBe(false);
    time.set(time.now() + 60_000);
    expect(await other.claimOutbox({ owner: 'b', leaseMs: 60_000 })).toMatchObject([
      { id: row.id, attempts: 2, claimedBy: 'b' },
    ]);
    expect(await store.settleOutbox(row.id, 'a', { status: 'sent' })).toBe(false);
    expect(await other.settleOutbox(row.id, 'b', { status: 'sent' })).toBe(true);
  });

  it('a process leaves alone the messages of channels its config does not name', async () => {
    const { store, hook, time } = await setUp();
    await store.enqueueOutbox({ channel: 'elsewhere', service: 'webhook', payload: { text: 'not mine' } });
    expect(await store.claimOutbox({ owner: 'x', leaseMs: 1000, channels: ['hook', 'team'] })).toEqual([]);
    const other = createNotifier({
      config: parseNotifyConfig({ channels: { hook: { service: 'webhook', url: `${hook.base}/in` } } }),
      store,
      now: time.now,
    });
    expect(await other.deliverDue()).toBe(0);
    expect(await store.listOutbox()).toMatchObject([
      { channel: 'elsewhere', status: 'pending', attempts: 0 },
    ]);
    expect(hook.hits).toHaveLength(0);
  });

  it('sends nothing to a host no gateway is configured for', async () => {
    const other: GatewayStandIn = await startWebhookStandIn();
    cleanup.push(() => other.close());
    const guarded = guardedFetch(() => new Set(['127.0.0.1:9']));
    await expect(guarded(`${other.base}/x`, { method: 'POST', body: 'x' })).rejects.toBeInstanceOf(
      OutboundRefused,
    );
    expect(other.hits).toHaveLength(0);
  });

  it('refuses an address from the environment that is not an http(s) one, without saying it', async () => {
    const store = openSessionStore({ path: ':memory:' });
    cleanup.push(() => store.close());
    const notifier = createNotifier({
      config: parseNotifyConfig({ channels: { x: { service: 'slack', url: { env: 'U' } } } }),
      store,
      env: { U: 'secret-not-a-url' },
    });
    const verdict = await notifier.check({ text: 'x' });
    expect(verdict).toMatchObject({ refusal: { code: 'bad_address' } });
    expect(JSON.stringify(verdict)).not.toContain('secret-not-a-url');
  });

  it('refuses everything, saying so, when no gateway is configured', async () => {
    const store = openSessionStore({ path: ':memory:' });
    cleanup.push(() => store.close());
    const notifier = createNotifier({ config: undefined, store });
    expect(await notifier.send({ text: 'x' })).toMatchObject({
      status: 'refused',
      refusal: { code: 'not_configured' },
    });
  });
});
