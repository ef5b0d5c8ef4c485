import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createAutomationScheduler } from '../src/create-automations.js';
import { createRuntime } from '../src/create-runtime.js';
import { type StandIn, startStandIn } from '../src/testing/index.js';
import { FakeClock } from './support/fake-clock.js';
import { RecordingNotifier } from './support/recording-notifier.js';

let dir = '';
let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('automations through the composition root', () => {
  it('made in chat with automation_create, then run by the scheduler serve starts', async () => {
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
    const config = parseConfig({ automations: { timeZone: 'Europe/London' } }, { baseDir: dir, env: {} });
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
      const notifier = new RecordingNotifier();
      const ran = await createAutomationScheduler(runtime, { config, clock, notifier }).runDue();
      expect(ran.map((r) => r.status)).toEqual(['done']);
      expect(notifier.sent[0]?.channel).toBe('phone');
      expect(notifier.sent[0]?.text).toContain('Time for tea.');
    } finally {
      await runtime.close();
    }
  });
});
