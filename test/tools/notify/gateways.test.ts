import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AttachmentRef, Gateway } from '../../../src/tools/notify/gateway.js';
import { gatewayFor } from '../../../src/tools/notify/gateways.js';
import { guardedFetch } from '../../../src/tools/notify/guarded-fetch.js';
import { parseNotifyConfig } from '../../../src/tools/notify/notify-config.js';
import {
  discordRateLimit,
  type GatewayStandIn,
  ntfyError,
  startDiscordStandIn,
  startNtfyStandIn,
  startSlackStandIn,
  startTelegramStandIn,
  startWebhookStandIn,
  telegramRateLimit,
} from '../../support/gateway-stand-ins.js';

const open: GatewayStandIn[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const standIn of open.splice(0)) await standIn.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function track<T extends GatewayStandIn>(standIn: Promise<T>): Promise<T> {
  const started = await standIn;
  open.push(started);
  return started;
}

/** The gateway of one channel, allowed to reach only `hosts`. */
function gateway(channel: unknown, env: NodeJS.ProcessEnv, hosts: readonly string[]): Gateway {
  const config = parseNotifyConfig({ channels: { c: channel } });
  if (!config) throw new Error('no config');
  const allowed = new Set(hosts);
  return gatewayFor({ config: config.channels.c as never, env, fetch: guardedFetch(() => allowed) });
}

function file(name: string, bytes: number): AttachmentRef {
  const dir = mkdtempSync(join(tmpdir(), 'notify-file-'));
  dirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, Buffer.alloc(bytes, 7));
  return { path, name, size: bytes, type: 'application/octet-stream' };
}

describe('generic webhook', () => {
  it('posts the message as JSON with an idempotency key and a bearer token', async () => {
    const hook = await track(startWebhookStandIn());
    const g = gateway(
      { service: 'webhook', url: `${hook.base}/in`, token: { env: 'HOOK_TOKEN' } },
      { HOOK_TOKEN: 's3' },
      [hook.host],
    );
    const sent = await g.send({ text: 'build passed', blocks: [{ type: 'x' }] }, 'key-1');
    expect(sent).toEqual({ kind: 'sent', receipt: 'w1' });
    const [hit] = hook.hits;
    expect(hit?.headers['idempotency-key']).toBe('key-1');
    expect(hit?.headers.authorization).toBe('Bearer s3');
    expect(JSON.parse(hit?.body.toString() ?? '')).toEqual({
      channel: 'c',
      text: 'build passed',
      blocks: [{ type: 'x' }],
    });
  });

  it("takes a 4xx as a refusal in the receiver's words, and a 503 and a 429 as worth another try", async () => {
    const hook = await track(startWebhookStandIn());
    const g = gateway({ service: 'webhook', url: hook.base }, {}, [hook.host]);
    hook.script(
      { status: 422, body: { error: 'unknown field' } },
      { status: 503, body: 'down' },
      { status: 429, headers: { 'retry-after': '9' }, body: '' },
    );
    const refused = await g.send({ text: 'a' }, 'k');
    expect(refused).toMatchObject({ kind: 'refused', refusal: { code: 'service_refused' } });
    expect(refused.kind === 'refused' && refused.refusal.message).toContain('HTTP 422: unknown field');
    expect(await g.send({ text: 'a' }, 'k')).toMatchObject({ kind: 'retry' });
    expect(await g.send({ text: 'a' }, 'k')).toMatchObject({ kind: 'retry', afterMs: 9000 });
  });

  it('refuses a redirect to a host that is not a configured gateway, and follows none', async () => {
    const hook = await track(startWebhookStandIn());
    const elsewhere = await track(startWebhookStandIn());
    const g = gateway({ service: 'webhook', url: hook.base }, {}, [hook.host]);
    hook.script({ status: 307, headers: { location: `${elsewhere.base}/steal` } });
    const sent = await g.send({ text: 'secret' }, 'k');
    expect(sent).toMatchObject({ kind: 'refused', refusal: { code: 'outbound_refused' } });
    expect(elsewhere.hits).toHaveLength(0);
  });
});

describe('ntfy', () => {
  it('publishes text as the body, and a file with PUT and its name', async () => {
    const ntfy = await track(startNtfyStandIn());
    const g = gateway({ service: 'ntfy', server: ntfy.base, topic: 'alerts' }, {}, [ntfy.host]);
    expect(await g.send({ text: 'disk full' }, 'k')).toEqual({ kind: 'sent', receipt: 'ntfy1' });
    expect(ntfy.hits[0]).toMatchObject({ method: 'POST', path: '/alerts' });
    expect(ntfy.hits[0]?.body.toString()).toBe('disk full');
    const report = file('report.pdf', 1000);
    expect(await g.send({ text: 'weekly', attachment: report }, 'k')).toMatchObject({ kind: 'sent' });
    expect(ntfy.hits[1]).toMatchObject({ method: 'PUT', path: '/alerts' });
    expect(ntfy.hits[1]?.query.get('filename')).toBe('report.pdf');
    expect(ntfy.hits[1]?.body.length).toBe(1000);
  });

  it('refuses text over 4,096 bytes and blocks before sending; reads 429 and 413 answers', async () => {
    const ntfy = await track(startNtfyStandIn());
    const g = gateway({ service: 'ntfy', server: ntfy.base, topic: 'alerts' }, {}, [ntfy.host]);
    expect(await g.check({ text: 'é'.repeat(2049) })).toMatchObject({ refusal: { code: 'text_too_long' } });
    expect(await g.check({ text: 'x', blocks: [{}] })).toMatchObject({
      refusal: { code: 'blocks_unsupported' },
    });
    ntfy.script(
      ntfyError(429, 42901, 'limit reached: too many requests'),
      ntfyError(413, 41301, 'request entity too large'),
    );
    expect(await g.send({ text: 'x' }, 'k')).toMatchObject({ kind: 'retry' });
    const refused = await g.send({ text: 'x' }, 'k');
    expect(refused.kind === 'refused' && refused.refusal.message).toContain(
      'request entity too large (code 41301)',
    );
    expect(ntfy.hits).toHaveLength(2);
  });

  it('refuses a file past the channel limit, and a missing token variable, naming it', async () => {
    const g = gateway(
      {
        service: 'ntfy',
        server: 'https://ntfy.example',
        topic: 't',
        token: { env: 'NTFY_TK' },
        maxAttachmentBytes: 10,
      },
      { NTFY_TK: 'tk' },
      [],
    );
    expect(await g.check({ text: '', attachment: file('big.bin', 11) })).toMatchObject({
      refusal: { code: 'attachment_too_large' },
    });
    const noToken = gateway({ service: 'ntfy', topic: 't', token: { env: 'NTFY_TK' } }, {}, []);
    const verdict = await noToken.check({ text: 'x' });
    expect(verdict).toMatchObject({ refusal: { code: 'credentials_missing' } });
    expect('refusal' in verdict && verdict.refusal.message).toContain('NTFY_TK');
  });
});

describe('Slack incoming webhooks', () => {
  it('posts text and blocks; reads its plain-text errors and its 429', async () => {
    const slack = await track(startSlackStandIn());
    const g = gateway(
      { service: 'slack', url: { env: 'SLACK_URL' } },
      { SLACK_URL: `${slack.base}/services/T/B/X` },
      [slack.host],
    );
    expect(await g.send({ text: 'hi', blocks: [{ type: 'divider' }] }, 'k')).toEqual({ kind: 'sent' });
    expect(JSON.parse(slack.hits[0]?.body.toString() ?? '')).toEqual({
      text: 'hi',
      blocks: [{ type: 'divider' }],
    });
    slack.script(
      { status: 410, body: 'channel_is_archived' },
      { status: 429, headers: { 'retry-after': '30' }, body: 'rate_limited' },
      { status: 500, body: 'rollup_error' },
    );
    const archived = await g.send({ text: 'hi' }, 'k');
    expect(archived).toMatchObject({
      kind: 'refused',
      refusal: { hints: [expect.stringContaining('archived')] },
    });
    expect(await g.send({ text: 'hi' }, 'k')).toMatchObject({ kind: 'retry', afterMs: 30_000 });
    expect(await g.send({ text: 'hi' }, 'k')).toMatchObject({
      kind: 'retry',
      reason: expect.stringContaining('rollup_error'),
    });
  });

  it('refuses a file, 51 blocks and 40,001 characters before sending', async () => {
    const g = gateway(
      { service: 'slack', url: { env: 'SLACK_URL' } },
      { SLACK_URL: 'https://hooks.slack.com/services/x' },
      [],
    );
    expect(await g.check({ text: 'x', attachment: file('a.txt', 1) })).toMatchObject({
      refusal: { code: 'attachment_unsupported' },
    });
    expect(await g.check({ text: 'x', blocks: Array(51).fill({ type: 'divider' }) })).toMatchObject({
      refusal: { code: 'too_many_blocks' },
    });
    expect(await g.check({ text: 'x'.repeat(40_001) })).toMatchObject({ refusal: { code: 'text_too_long' } });
    expect(await g.check({ text: 'x'.repeat(40_000) })).toEqual({ ok: true });
  });
});

describe('Discord webhooks', () => {
  it('posts with wait=true, sends a file as multipart, and reads retry_after in seconds', async () => {
    const discord = await track(startDiscordStandIn());
    const env = { DISCORD_URL: `${discord.base}/api/webhooks/1/tok` };
    const g = gateway({ service: 'discord', url: { env: 'DISCORD_URL' } }, env, [discord.host]);
    expect(await g.send({ text: 'deployed' }, 'k')).toMatchObject({
      kind: 'sent',
      receipt: '111122223333444401',
    });
    expect(discord.hits[0]?.query.get('wait')).toBe('true');
    expect(JSON.parse(discord.hits[0]?.body.toString() ?? '')).toMatchObject({ content: 'deployed' });
    expect(await g.send({ text: 'log', attachment: file('run.log', 20) }, 'k')).toMatchObject({
      kind: 'sent',
    });
    expect(discord.hits[1]?.headers['content-type']).toContain('multipart/form-data');
    expect(discord.hits[1]?.body.toString()).toContain('filename="run.log"');
    discord.script(discordRateLimit(1.5), { status: 404, body: { code: 10015, message: 'Unknown Webhook' } });
    expect(await g.send({ text: 'x' }, 'k')).toMatchObject({ kind: 'retry', afterMs: 1500 });
    expect(await g.send({ text: 'x' }, 'k')).toMatchObject({
      kind: 'refused',
      refusal: { message: expect.stringContaining('Unknown Webhook (code 10015)') },
    });
  });

  it('refuses 2,001 characters, 11 embeds and a file over 10 MiB', async () => {
    const g = gateway(
      { service: 'discord', url: { env: 'D' } },
      { D: 'https://discord.com/api/webhooks/1/t' },
      [],
    );
    expect(await g.check({ text: 'x'.repeat(2001) })).toMatchObject({ refusal: { code: 'text_too_long' } });
    expect(await g.check({ text: 'x', blocks: Array(11).fill({ title: 't' }) })).toMatchObject({
      refusal: { code: 'too_many_blocks' },
    });
    expect(await g.check({ text: 'x', attachment: file('big.zip', 10 * 1024 * 1024 + 1) })).toMatchObject({
      refusal: { code: 'attachment_too_large' },
    });
  });

  it('refuses a webhook address variable that is not set', async () => {
    const g = gateway({ service: 'discord', url: { env: 'D' } }, {}, []);
    expect(await g.check({ text: 'x' })).toMatchObject({ refusal: { code: 'credentials_missing' } });
  });
});

describe('Telegram Bot API', () => {
  it('sends with sendMessage and a file with sendDocument, caption and all', async () => {
    const tg = await track(startTelegramStandIn('123:abc', ['42']));
    const g = gateway(
      { service: 'telegram', token: { env: 'TG' }, chatId: 42, apiBase: tg.base },
      { TG: '123:abc' },
      [tg.host],
    );
    expect(await g.send({ text: 'hello' }, 'k')).toEqual({ kind: 'sent', receipt: '1' });
    expect(tg.hits[0]?.path).toBe('/bot123:abc/sendMessage');
    expect(JSON.parse(tg.hits[0]?.body.toString() ?? '')).toEqual({ chat_id: '42', text: 'hello' });
    expect(await g.send({ text: 'the report', attachment: file('r.pdf', 5) }, 'k')).toMatchObject({
      kind: 'sent',
    });
    expect(tg.hits[1]?.path).toBe('/bot123:abc/sendDocument');
    expect(tg.hits[1]?.body.toString()).toContain('the report');
  });

  it('asks getChat in the dry run: an unknown chat and a wrong token refuse, nothing is sent', async () => {
    const tg = await track(startTelegramStandIn('123:abc', ['42']));
    const unknown = gateway(
      { service: 'telegram', token: { env: 'TG' }, chatId: 7, apiBase: tg.base },
      { TG: '123:abc' },
      [tg.host],
    );
    const verdict = await unknown.check({ text: 'x' });
    expect(verdict).toMatchObject({ refusal: { code: 'unknown_chat' } });
    expect('refusal' in verdict && verdict.refusal.message).toContain('Bad Request: chat not found');
    const wrong = gateway(
      { service: 'telegram', token: { env: 'TG' }, chatId: 42, apiBase: tg.base },
      { TG: '9:zz' },
      [tg.host],
    );
    expect(await wrong.check({ text: 'x' })).toMatchObject({ refusal: { code: 'credentials_rejected' } });
    expect(tg.chatChecks).toHaveLength(2);
    expect(tg.hits).toHaveLength(0);
  });

  it('a dry run that cannot reach Telegram refuses nothing; local limits still refuse', async () => {
    const tg = await track(startTelegramStandIn('1:a', ['42']));
    const base = tg.base;
    await tg.close();
    open.splice(open.indexOf(tg), 1);
    const g = gateway(
      { service: 'telegram', token: { env: 'TG' }, chatId: 42, apiBase: base },
      { TG: '1:a' },
      [tg.host],
    );
    expect(await g.check({ text: 'x' })).toEqual({ ok: true });
    expect(await g.check({ text: 'x'.repeat(4097) })).toMatchObject({ refusal: { code: 'text_too_long' } });
    expect(await g.check({ text: 'x'.repeat(1025), attachment: file('a.txt', 1) })).toMatchObject({
      refusal: { code: 'text_too_long', message: expect.stringContaining('caption') },
    });
    expect(await g.send({ text: 'x' }, 'k')).toMatchObject({
      kind: 'retry',
      reason: expect.stringContaining('could not be reached'),
    });
  });

  it('reads parameters.retry_after from a 429', async () => {
    const tg = await track(startTelegramStandIn('1:a', ['42']));
    const g = gateway(
      { service: 'telegram', token: { env: 'TG' }, chatId: 42, apiBase: tg.base },
      { TG: '1:a' },
      [tg.host],
    );
    tg.script(telegramRateLimit(3));
    expect(await g.send({ text: 'x' }, 'k')).toMatchObject({ kind: 'retry', afterMs: 3000 });
  });
});

describe('one check for the dry run and the send', () => {
  it.each([
    ['webhook', { service: 'webhook', url: 'https://hooks.example/in' }, 100_001],
    ['ntfy', { service: 'ntfy', topic: 't' }, 4097],
    ['slack', { service: 'slack', url: { env: 'U' } }, 40_001],
    ['discord', { service: 'discord', url: { env: 'U' } }, 2001],
    ['telegram', { service: 'telegram', token: { env: 'T' }, chatId: 1 }, 4097],
  ])(
    '%s refuses an over-long text in the same words whether asked or sending, and sends nothing',
    async (_name, channel, length) => {
      let requests = 0;
      const config = parseNotifyConfig({ channels: { c: channel } });
      const g = gatewayFor({
        config: config?.channels.c as never,
        env: { U: 'https://hooks.example/x', T: '1:a' },
        fetch: async () => {
          requests += 1;
          return new Response('{}');
        },
      });
      const message = { text: 'x'.repeat(length) };
      const asked = await g.check(message);
      const sent = await g.send(message, 'k');
      expect('refusal' in asked && asked.refusal.code).toBe('text_too_long');
      expect(sent).toEqual({ kind: 'refused', refusal: 'refusal' in asked ? asked.refusal : undefined });
      expect(requests).toBe(0);
    },
  );
});
