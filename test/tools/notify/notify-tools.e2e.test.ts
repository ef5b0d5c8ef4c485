import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../src/core/events.js';
import { openSessionStore } from '../../../src/store/index.js';
import { builtinProviders } from '../../../src/tools/builtin/builtin-providers.js';
import { createNotifier } from '../../../src/tools/notify/notifier.js';
import { parseNotifyConfig } from '../../../src/tools/notify/notify-config.js';
import {
  type GatewayStandIn,
  startDiscordStandIn,
  startSlackStandIn,
  startTelegramStandIn,
} from '../../support/gateway-stand-ins.js';
import {
  callEnds,
  collect,
  type HarnessOptions,
  type RuntimeHarness,
  startHarness,
} from '../../support/runtime-harness.js';

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const echo = { echo: 'lastToolResult' as const };

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface Gateways {
  readonly discord: GatewayStandIn;
  readonly slack: GatewayStandIn;
  readonly telegram: GatewayStandIn;
  readonly h: RuntimeHarness;
}

/** A runtime whose built-in providers carry a notifier with three channels on loopback stand-ins. */
async function start(
  script: NonNullable<HarnessOptions['script']>,
  options: HarnessOptions = {},
): Promise<Gateways> {
  const discord = await startDiscordStandIn();
  const slack = await startSlackStandIn();
  const telegram = await startTelegramStandIn('1:tok', ['42']);
  cleanup.push(
    () => discord.close(),
    () => slack.close(),
    () => telegram.close(),
  );
  const outbox = openSessionStore({ path: ':memory:' });
  cleanup.push(() => outbox.close());
  const notifier = createNotifier({
    config: parseNotifyConfig({
      channels: {
        discord: { service: 'discord', url: { env: 'DISCORD_URL' } },
        slack: { service: 'slack', url: { env: 'SLACK_URL' } },
        me: { service: 'telegram', token: { env: 'TG' }, chatId: '7', apiBase: telegram.base },
      },
      default: 'discord',
    }),
    store: outbox,
    env: { DISCORD_URL: `${discord.base}/api/webhooks/1/x`, SLACK_URL: slack.base, TG: '1:tok' },
  });
  // The harness's workspace is its own temporary folder, which it names only once started: a provider
  // registered afterwards reads it.
  const h = await startHarness({ script, ...options });
  cleanup.push(() => h.close());
  const providers = builtinProviders({ workspace: [h.dir], memory: outbox, tasks: outbox, notify: notifier });
  const notify = providers.find((p) => p.name === 'builtin/notify');
  if (notify === undefined) throw new Error('builtin/notify was not registered');
  h.registry.register(notify);
  return { discord, slack, telegram, h };
}

async function turn(h: RuntimeHarness, text: string): Promise<RuntimeEvent[]> {
  return collect(await (await h.runtime.session('s')).send(text));
}

function modelRead(h: RuntimeHarness): string {
  return JSON.stringify(h.standIn.requests.at(-1));
}

describe('notify tools in a turn', () => {
  it('text over Discord’s limit is refused before anyone is asked, in the check’s words, and nothing is sent', async () => {
    const { h, discord } = await start([call('notify', { text: 'x'.repeat(2001) }), echo]);
    const events = await turn(h, 'tell me');
    expect(events.some((e) => e.type === 'approval-request')).toBe(false);
    expect(callEnds(events)[0]).toMatchObject({ notRun: 'refused_by_tool', isError: true });
    expect(modelRead(h)).toContain('Discord takes at most 2000');
    expect(discord.hits).toHaveLength(0);
  });

  it('a file outside the workspace, and any file for Slack, are refused before anyone is asked', async () => {
    const { h, slack } = await start([
      call('notify_attachment', { path: '../../etc/hostname' }),
      call('notify_attachment', { path: 'notes.txt', channel: 'slack' }),
      echo,
    ]);
    writeFileSync(join(h.dir, 'notes.txt'), 'n');
    const events = await turn(h, 'send files');
    expect(events.some((e) => e.type === 'approval-request')).toBe(false);
    expect(callEnds(events).map((e) => e.notRun)).toEqual(['refused_by_tool', 'refused_by_tool']);
    const read = JSON.stringify(h.standIn.requests);
    expect(read).toContain('outside every folder');
    expect(read).toContain('Slack takes no files');
    expect(slack.hits).toHaveLength(0);
  });

  it("Telegram's getChat refuses an unknown chat before anyone is asked; no message is sent", async () => {
    const { h, telegram } = await start([call('notify', { text: 'hi', channel: 'me' }), echo]);
    const events = await turn(h, 'ping me');
    expect(events.some((e) => e.type === 'approval-request')).toBe(false);
    expect(modelRead(h)).toContain('chat not found');
    expect(telegram.hits).toHaveLength(0);
  });

  it('a message that would send is asked about, and once approved it is sent', async () => {
    const { h, discord } = await start(
      [call('notify', { text: 'build passed', blocks: '[{"title":"CI"}]' }), echo],
      {
        approvals: { policy: 'auto' },
      },
    );
    const events = await turn(h, 'tell me');
    expect(callEnds(events)[0]).toMatchObject({ isError: false });
    expect(modelRead(h)).toContain('Sent to discord');
    expect(JSON.parse(discord.hits[0]?.body.toString() ?? '')).toMatchObject({
      content: 'build passed',
      embeds: [{ title: 'CI' }],
    });
  });

  it('a message that would send goes to the approval policy (deny declines it), unlike a refusal', async () => {
    const { h, discord } = await start([call('notify', { text: 'ok' }), echo], {
      approvals: { policy: 'deny' },
    });
    const events = await turn(h, 'tell me');
    expect(callEnds(events)[0]).toMatchObject({ isError: true });
    expect(callEnds(events)[0]?.notRun).not.toBe('refused_by_tool');
    expect(discord.hits).toHaveLength(0);
  });
});
