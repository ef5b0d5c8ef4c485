import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createAutomationScheduler } from '../src/create-automations.js';
import { createRuntime } from '../src/create-runtime.js';
import { type StandIn, startStandIn } from '../src/testing/index.js';
import { FakeClock } from './support/fake-clock.js';
import { type GatewayStandIn, startWebhookStandIn } from './support/gateway-stand-ins.js';

let dir = '';
let standIn: StandIn | undefined;
let hook: GatewayStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  await hook?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('automations through the composition root', () => {
  it('made in chat with automation_create, run by the scheduler serve starts, its result sent through the outbox to the channel it names', async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolseam-automations-root-'));
    const spec = {
      name: 'tea',
      schedule: 'every day at 16:00',
      prompt: 'Remind me to drink tea.',
      notify: 'phone',
    };
    standIn = await startStandIn({
      family: 'openai',
      script: [
        { toolCalls: [{ name: 'automation_create', arguments: { spec: JSON.stringify(spec) } }] },
        { text: 'Scheduled.' },
        { text: 'Time for tea.' },
      ],
    });
    hook = await startWebhookStandIn();
    const notify = { channels: { phone: { service: 'webhook', url: `${hook.base}/in` } } };
    const config = parseConfig(
      { automations: { timeZone: 'Europe/London' }, notify },
      { baseDir: dir, env: {} },
    );
    const runtime = await createRuntime({
      model: { provider: 'openai-compatible', model: 'demo', baseURL: standIn.baseURL, apiKey: 'stand-in' },
      config,
      store: join(dir, 't.db'),
      approvals: { policy: 'auto' },
      builtins: true,
      subagents: false,
    });
    try {
      for await (const _ of await (await runtime.session()).send('remind me about tea every day at four')) {
        // the turn runs to its end
      }
      const made = await runtime.options.store.getAutomation('tea');
      expect(made?.cron).toBe('0 16 * * *');
      const clock = new FakeClock(Date.parse(made?.nextRunAt as string));
      const ran = await createAutomationScheduler(runtime, { config, clock }).runDue();
      expect(ran.map((r) => [r.status, r.notified])).toEqual([['done', 'sent']]);
      expect(hook.hits).toHaveLength(1);
      const posted = JSON.parse(hook.hits[0]?.body.toString() ?? '{}') as { text?: string };
      expect(posted.text).toContain('Automation "tea"');
      expect(posted.text).toContain('Time for tea.');
      const [row] = await runtime.options.store.listOutbox();
      expect(row).toMatchObject({ channel: 'phone', status: 'sent' });
    } finally {
      await runtime.close();
    }
  });
});
