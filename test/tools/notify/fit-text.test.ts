import { describe, expect, it } from 'vitest';
import { openSessionStore } from '../../../src/store/index.js';
import { fitText, localVerdict } from '../../../src/tools/notify/local-checks.js';
import { createNotifier } from '../../../src/tools/notify/notifier.js';
import { parseNotifyConfig } from '../../../src/tools/notify/notify-config.js';

describe('fitting a long result to a channel', () => {
  const store = openSessionStore({ path: ':memory:' });
  const notifier = createNotifier({
    config: parseNotifyConfig({
      channels: {
        ops: { service: 'discord', url: { env: 'D' } },
        phone: { service: 'ntfy', topic: 't' },
        me: { service: 'telegram', token: { env: 'T' }, chatId: 1 },
      },
      default: 'ops',
    }),
    store,
    env: { D: 'https://discord.com/api/webhooks/1/x', T: '1:a' },
  });

  it("tells each channel's limits, the default's when none is named", () => {
    expect(notifier.limits()).toMatchObject({ label: 'Discord', maxText: 2000, maxBlocks: 10 });
    expect(notifier.limits('phone')).toMatchObject({ maxText: 4096, unit: 'bytes' });
    expect(notifier.limits('nope')).toBeUndefined();
  });

  it('cuts a text to what the channel takes, so its check passes, and leaves a short one alone', () => {
    for (const channel of ['ops', 'phone', 'me']) {
      const limits = notifier.limits(channel);
      if (limits === undefined) throw new Error(channel);
      const fitted = fitText('é🙂'.repeat(5000), limits);
      expect(fitted.endsWith(' […]')).toBe(true);
      expect(localVerdict(channel, limits, { text: fitted })).toEqual({ ok: true });
      expect(localVerdict(channel, limits, { text: `${fitted}🙂🙂` })).toMatchObject({
        refusal: { code: 'text_too_long' },
      });
      expect(fitText('short', limits)).toBe('short');
    }
  });

  it('fits a caption to the caption limit', () => {
    const limits = notifier.limits('me');
    if (limits === undefined) throw new Error('me');
    expect(fitText('x'.repeat(3000), limits, '…', true)).toHaveLength(1024);
  });
});
