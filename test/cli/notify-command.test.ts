import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { type GatewayStandIn, ntfyError, startNtfyStandIn } from '../support/gateway-stand-ins.js';
import { toolseamInProcess } from './toolseam-in-process.js';

let dir: string;
let ntfy: GatewayStandIn;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-notify-'));
  ntfy = await startNtfyStandIn();
  writeFileSync(
    join(dir, 'toolseam.json'),
    JSON.stringify({
      db: 'store.db',
      notify: { channels: { phone: { service: 'ntfy', server: ntfy.base, topic: 'me' } } },
    }),
  );
});
afterEach(async () => {
  await ntfy.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('toolseam notify test CHANNEL', () => {
  it('sends a test message through the channel and keeps it in the outbox as sent', async () => {
    const run = await toolseamInProcess(['notify', 'test', 'phone', '--text', 'hello from the test'], dir);
    expect(run).toMatchObject({ code: 0, stdout: 'sent to phone (message ntfy1)\n' });
    expect(ntfy.hits[0]?.body.toString()).toBe('hello from the test');
    const store = openSessionStore({ path: join(dir, 'store.db') });
    try {
      expect(await store.listOutbox()).toMatchObject([
        { channel: 'phone', status: 'sent', origin: 'cli:notify-test' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('says what the channel refuses, and what the service answered', async () => {
    const long = await toolseamInProcess(['notify', 'test', 'phone', '--text', 'x'.repeat(5000)], dir);
    expect(long.code).toBe(1);
    expect(long.stderr).toContain('takes at most 4096');
    const unknown = await toolseamInProcess(['notify', 'test', 'phnoe'], dir);
    expect(unknown.stderr).toContain('Did you mean "phone"?');
    ntfy.script(ntfyError(403, 40301, 'forbidden'));
    const forbidden = await toolseamInProcess(['notify', 'test', 'phone'], dir);
    expect(forbidden).toMatchObject({ code: 1, stderr: expect.stringContaining('forbidden (code 40301)') });
    expect(ntfy.hits).toHaveLength(1);
  });

  it('a config without "notify" is told so', async () => {
    writeFileSync(join(dir, 'toolseam.json'), '{}');
    const run = await toolseamInProcess(['notify', 'test', 'phone'], dir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('has no "notify" section');
  });
});

describe('toolseam notify outbox / deliver', () => {
  it('lists what waits, and deliver sends what is due', async () => {
    ntfy.script(ntfyError(429, 42901, 'limit reached: too many requests'));
    const queued = await toolseamInProcess(['notify', 'test', 'phone', '--text', 'later'], dir);
    expect(queued).toMatchObject({ code: 1, stderr: expect.stringContaining('not delivered yet') });
    const listed = await toolseamInProcess(['notify', 'outbox'], dir);
    expect(listed.stdout).toContain('phone  next try');
    expect(listed.stdout).toContain('limit reached: too many requests (code 42901)');
    expect(listed.stdout).toContain('"later"');
    // The back-off has not run out yet: nothing is due.
    expect((await toolseamInProcess(['notify', 'deliver'], dir)).stdout).toBe(
      'delivered 0; 1 still waiting\n',
    );
    const store = openSessionStore({ path: join(dir, 'store.db'), now: () => Date.now() + 60_000 });
    try {
      const [row] = await store.claimOutbox({ owner: 'test', leaseMs: 1 });
      // Due now for everyone: settle it as due at once, as the back-off running out would.
      await store.settleOutbox(row?.id ?? '', 'test', { status: 'pending', retryAt: 0, error: 'due' });
    } finally {
      await store.close();
    }
    expect((await toolseamInProcess(['notify', 'deliver'], dir)).stdout).toBe(
      'delivered 1; 0 still waiting\n',
    );
    expect((await toolseamInProcess(['notify', 'outbox'], dir)).stdout).toContain('nothing waiting');
    expect(ntfy.hits.map((hit) => hit.body.toString())).toEqual(['later', 'later']);
  });

  it('with no database yet, the outbox is empty and none is made', async () => {
    const run = await toolseamInProcess(['notify', 'outbox', '--db', join(dir, 'none.db')], dir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('there is no session database');
  });
});
