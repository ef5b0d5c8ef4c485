import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import { notifyCredentials, parseNotifyConfig } from '../../../src/tools/notify/notify-config.js';

const parse = (notify: unknown) => parseConfig({ notify }, { baseDir: '/tmp', source: 'toolseam.json' });

describe('the "notify" section of toolseam.json', () => {
  it('reads each service with its defaults', () => {
    const config = parse({
      channels: {
        phone: { service: 'ntfy', topic: 'me-123' },
        me: { service: 'telegram', token: { env: 'TG_TOKEN' }, chatId: 42 },
        team: { service: 'slack', url: { env: 'SLACK_URL' } },
        hook: { service: 'webhook', url: 'https://example.com/in', attachmentTypes: ['PDF', '.png'] },
      },
      default: 'phone',
    }).notify;
    expect(config?.channels.phone).toMatchObject({ server: 'https://ntfy.sh', topic: 'me-123' });
    expect(config?.channels.me).toMatchObject({ chatId: '42', apiBase: 'https://api.telegram.org' });
    expect(config?.channels.hook?.attachmentTypes).toEqual(['.pdf', '.png']);
    expect(config?.default).toBe('phone');
  });

  it('is absent without the section, and then no notify tool is offered', () => {
    expect(parseConfig({}, { baseDir: '/tmp' }).notify).toBeUndefined();
  });

  it.each([
    [[], /"notify" in toolseam.json must be/],
    [{ channels: {} }, /"notify.channels" .* at least one channel/],
    [{ channels: { a: { service: 'slak' } } }, /"notify.channels.a.service" .* Did you mean "slack"\?/],
    [
      { channels: { a: { service: 'slack', url: 'https://hooks.slack.com/services/x' } } },
      /is a secret: write \{"env"/,
    ],
    [
      { channels: { a: { service: 'telegram', token: 'abc', chatId: 1 } } },
      /"notify.channels.a.token" .* \{"env": "VARIABLE"\}/,
    ],
    [{ channels: { a: { service: 'telegram', token: { env: 'T' } } } }, /chatId/],
    [{ channels: { a: { service: 'ntfy', topic: 'has space' } } }, /topic name/],
    [
      { channels: { a: { service: 'ntfy', topic: 't', sever: 'x' } } },
      /"notify.channels.a.sever" .* did you mean "server"\?/,
    ],
    [{ channels: { a: { service: 'webhook', url: 'ftp://x' } } }, /http\(s\) address/],
    [
      { channels: { a: { service: 'webhook', url: 'https://x', maxAttachmentBytes: 0 } } },
      /whole number of bytes/,
    ],
    [
      { channels: { a: { service: 'ntfy', topic: 't' } }, default: 'b' },
      /"notify.default" in toolseam.json must be one of the channels \(a\)/,
    ],
    [{ channels: { a: { service: 'ntfy', topic: 't' } }, maxAttempts: 0 }, /maxAttempts/],
  ])('refuses %j, naming the key', (notify, message) => {
    expect(() => parse(notify)).toThrow(message);
  });

  it('names the environment values its channels read, for the runtime to hide', () => {
    const config = parseNotifyConfig({
      channels: {
        team: { service: 'slack', url: { env: 'SLACK_URL' } },
        me: { service: 'telegram', token: { env: 'TG' }, chatId: 1 },
      },
    });
    expect(
      notifyCredentials(config, { SLACK_URL: 'https://hooks.slack.com/services/s', TG: '1:abc' }),
    ).toEqual(
      new Map([
        ['notify.channels.team.url', 'https://hooks.slack.com/services/s'],
        ['notify.channels.me.token', '1:abc'],
      ]),
    );
  });
});
