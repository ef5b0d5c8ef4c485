import { afterEach, describe, expect, it } from 'vitest';
import type { AutomationRecord } from '../../../src/core/automation-records.js';
import {
  AutomationDesk,
  AutomationRunner,
  AutomationScheduler,
  automationSettings,
} from '../../../src/runtime/automations/index.js';
import type { RuntimeOptions } from '../../../src/runtime/runtime-options.js';
import { openSessionStore } from '../../../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../../../src/tools/index.js';
import { demoProvider, type RunCounts } from '../../support/demo-tools.js';
import { FakeClock } from '../../support/fake-clock.js';
import { RecordingNotifier } from '../../support/recording-notifier.js';
import { type RuntimeHarness, startHarness } from '../../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const SEVEN = Date.parse('2026-12-07T07:00:00Z');
const EIGHT = Date.parse('2026-12-07T08:00:00Z');

interface Setup {
  readonly clock: FakeClock;
  readonly notifier: RecordingNotifier;
  readonly runner: AutomationRunner;
  readonly scheduler: AutomationScheduler;
  readonly desk: AutomationDesk;
  readonly options: RuntimeOptions;
}

function setUp(harness: RuntimeHarness, config: Record<string, unknown> = {}, start = SEVEN): Setup {
  const clock = new FakeClock(start);
  const notifier = new RecordingNotifier();
  const settings = automationSettings({ timeZone: 'UTC', ...config });
  const options = harness.runtime.options;
  const runner = new AutomationRunner({ runtime: options, settings, notifier, clock, owner: 'test-a' });
  const desk = new AutomationDesk({ store: options.store, settings, now: () => clock.now() });
  return { clock, notifier, runner, scheduler: new AutomationScheduler(runner), desk, options };
}

async function make(desk: AutomationDesk, spec: Record<string, unknown>): Promise<AutomationRecord> {
  return desk.create(await desk.prepareCreate(spec));
}

describe('automations run as unattended turns', () => {
  it('fires when its time comes on the injected clock, refuses what would ask, and hands its result over', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [call('send_email', { to: 'sam@example.com', body: 'Sunny' }), { echo: 'lastToolResult' }],
    });
    const s = setUp(h);
    await make(s.desk, {
      name: 'morning mail',
      schedule: 'every day at 08:00',
      prompt: 'Email Sam the forecast.',
    });

    s.scheduler.start();
    const delivered = s.notifier.next();
    // the loop found nothing due at 07:00 and went to sleep until 08:00 on the fake clock
    await expect.poll(() => s.clock.sleeping).toBe(1);
    expect(h.standIn.requests).toHaveLength(0);
    s.clock.set(EIGHT);
    const message = await delivered;
    await s.scheduler.stop();

    // the model was told, in the tool result it read, that nobody could approve the call
    const second = h.standIn.requests[1];
    expect(second?.lastToolResult?.content).toContain('this run is unattended and nobody can approve it');
    expect(counts.get('send_email')).toBeUndefined();
    expect(message.origin).toBe('automation:morning mail');
    expect(message.text).toContain('Automation "morning mail"');
    expect(message.text).toContain(
      'Not run, since they need an approval and nobody was there to give it: send_email.',
    );
    expect(message.text).not.toContain('late');

    const stored = await s.options.store.getAutomation('morning mail');
    expect(stored?.lastRun?.status).toBe('done');
    expect(stored?.lastRun?.scheduledFor).toBe('2026-12-07T08:00:00.000Z');
    expect(stored?.nextRunAt).toBe('2026-12-08T08:00:00.000Z');
    // the run is a session the person can open, titled with the automation and its occurrence
    const session = await s.options.store.getSession(stored?.lastRun?.sessionId as string);
    expect(session?.title).toBe('morning mail — Mon 7 Dec 2026, 08:00 (UTC)');
    expect(message.text).toContain(`Session: ${session?.id}`);
  });

  it('stops when its model requests are spent, and says so', async () => {
    const weather = call('lookup_weather', { city: 'Oslo' });
    h = await startHarness({ providers: [demoProvider()], script: [weather, weather, weather, weather] });
    const s = setUp(h, {}, EIGHT - 1000);
    await make(s.desk, {
      name: 'weather loop',
      schedule: '0 8 * * *',
      prompt: 'Check the weather until it changes.',
      budget: { modelRequests: 2 },
    });
    s.clock.set(EIGHT);
    const [outcome] = await s.scheduler.runDue();
    expect(h.standIn.requests).toHaveLength(2);
    expect(outcome?.status).toBe('budget');
    expect(outcome?.text).toContain('stopped: budget spent');
    expect(outcome?.text).toContain('this run had spent its 2 model requests');
    expect(s.notifier.sent).toHaveLength(1);
  });

  it('stops when its tokens are spent (as the provider reports them)', async () => {
    const weather = {
      ...call('lookup_weather', { city: 'Oslo' }),
      usage: { inputTokens: 80, outputTokens: 40 },
    };
    h = await startHarness({ providers: [demoProvider()], script: [weather, weather, weather] });
    const s = setUp(h, { budget: { tokens: 1000 } }, EIGHT - 1000);
    await make(s.desk, { name: 'tokens', schedule: '0 8 * * *', prompt: 'Go.', budget: { tokens: 100 } });
    s.clock.set(EIGHT);
    const [outcome] = await s.scheduler.runDue();
    expect(h.standIn.requests).toHaveLength(1);
    expect(outcome?.status).toBe('budget');
    expect(outcome?.text).toContain(
      'this run had spent its 100 tokens (used 1 of 12 model requests and 120 of 100 tokens)',
    );
  });

  it('after downtime, runs a missed occurrence once, saying how late', async () => {
    h = await startHarness({ script: [{ text: 'All quiet.' }, { text: 'should not be asked' }] });
    const s = setUp(h, {}, EIGHT);
    await make(s.desk, { name: 'hourly', schedule: 'every hour', prompt: 'Anything new?' });
    // down from 08:00 to 13:30: the 09:00 … 13:00 occurrences were all missed
    s.clock.set(Date.parse('2026-12-07T13:30:00Z'));
    const ran = await s.scheduler.runDue();
    expect(ran).toHaveLength(1);
    expect(ran[0]?.lateMs).toBe(4.5 * 3600_000);
    expect(ran[0]?.text).toContain('It ran 4 h 30 min late');
    expect(ran[0]?.text).toContain('All quiet.');
    expect(await s.scheduler.runDue()).toHaveLength(0);
    expect(h.standIn.requests).toHaveLength(1);
    expect((await s.options.store.getAutomation('hourly'))?.nextRunAt).toBe('2026-12-07T14:00:00.000Z');
  });

  it('two runtimes on one SQLite file racing for one occurrence: exactly one runs it', async () => {
    h = await startHarness({ script: [{ text: 'once' }, { text: 'twice' }] });
    const s = setUp(h, {}, EIGHT - 1000);
    const automation = await make(s.desk, { name: 'race', schedule: '0 8 * * *', prompt: 'Go.' });
    s.clock.set(EIGHT);
    const other = openSessionStore({ path: h.dbPath });
    try {
      const settings = automationSettings({ timeZone: 'UTC' });
      const b = new AutomationRunner({
        runtime: { ...s.options, store: other },
        settings,
        notifier: s.notifier,
        clock: s.clock,
        owner: 'test-b',
      });
      const seenByB = (await other.getAutomation('race')) as AutomationRecord;
      const outcomes = await Promise.all([s.runner.runIfClaimed(automation), b.runIfClaimed(seenByB)]);
      expect(outcomes.filter((o) => o !== undefined)).toHaveLength(1);
      expect(h.standIn.requests).toHaveLength(1);
      expect(s.notifier.sent).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('a result goes to the channel the automation names', async () => {
    h = await startHarness({ script: [{ text: 'Report ready.' }] });
    const s = setUp(h, {}, EIGHT - 1000);
    await make(s.desk, { name: 'report', schedule: '0 8 * * *', prompt: 'Report.', notify: 'phone' });
    s.clock.set(EIGHT);
    await s.scheduler.runDue();
    expect(s.notifier.sent.map((m) => m.channel)).toEqual(['phone']);
    expect(s.notifier.sent[0]?.text).toContain('Report ready.');
  });

  it('ask_user is not put to anyone in a run, even where the host can reach a person', async () => {
    let asked = 0;
    const askUser = defineTool({
      name: 'ask_user',
      description: 'Ask the person a question.',
      risk: 'safe',
      fields: { question: field.string({ maxLength: 200 }) },
      handler: () => {
        asked += 1;
        return 'yes';
      },
    });
    const provider = inProcessProvider({
      name: 'conversation',
      group: { key: 'c', own: false, purpose: '' },
      tools: [askUser],
    });
    h = await startHarness({
      providers: [provider],
      script: [call('ask_user', { question: 'Go ahead?' }), { echo: 'lastToolResult' }],
    });
    const s = setUp(h, {}, EIGHT - 1000);
    await make(s.desk, { name: 'asker', schedule: '0 8 * * *', prompt: 'Ask first.' });
    s.clock.set(EIGHT);
    const [outcome] = await s.scheduler.runDue();
    expect(asked).toBe(0);
    expect(h.standIn.requests[0]?.tools.map((t) => t.name)).not.toContain('ask_user');
    expect(outcome?.text).toContain(
      'blocked by a security policy (nobody is there to answer in an unattended run)',
    );
  });

  it('stopping the scheduler mid-run stops the run, and its result says so', async () => {
    // the model starts answering and then holds the stream open until the client goes away
    h = await startHarness({ script: [{ text: 'Half an answ', cutOff: 'hold' }] });
    const s = setUp(h, {}, EIGHT);
    await make(s.desk, { name: 'slow', schedule: 'every hour', prompt: 'Take your time.' });
    s.clock.set(EIGHT + 3600_000);
    s.scheduler.start();
    await expect.poll(() => h?.standIn.requests.length).toBe(1);
    await s.scheduler.stop();
    const stored = await s.options.store.getAutomation('slow');
    expect(stored?.lastRun?.status).toBe('stopped');
    expect(s.notifier.sent[0]?.text).toContain('Automation "slow" — Mon 7 Dec 2026, 09:00 (UTC): stopped.');
  });
});
