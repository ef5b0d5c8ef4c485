import { afterEach, describe, expect, it } from 'vitest';
import { AutomationDesk, automationSettings } from '../../../src/runtime/automations/index.js';
import { type Bench, makeBench, type Tools, toolsOn } from './builtin-fixture.js';

let bench: Bench | undefined;
afterEach(() => {
  bench?.cleanup();
  bench = undefined;
});

const NOW = Date.parse('2026-12-07T06:00:00Z');

async function setUp(): Promise<{ tools: Tools; bench: Bench }> {
  bench = await makeBench();
  const desk = new AutomationDesk({
    store: bench.store,
    settings: automationSettings({ timeZone: 'Europe/Berlin' }),
    agents: ['researcher'],
    now: () => NOW,
  });
  return { bench, tools: toolsOn(bench, { automations: desk }) };
}

const spec = JSON.stringify({
  name: 'brief',
  schedule: 'every weekday at 08:00',
  prompt: 'Summarise my inbox.',
});

describe('automation tools', () => {
  it('create, list, update and delete, with the spec and the patch as JSON text', async () => {
    const { tools } = await setUp();
    const ctx = tools.turn();
    const created = await tools.invoke('automation_create', { spec }, ctx);
    expect(created.isError).toBeFalsy();
    expect(created.content).toContain('brief');
    expect(created.content).toContain('[0 8 * * 1-5]; next run Mon 7 Dec 2026, 08:00 (Europe/Berlin)');

    const listed = await tools.invoke('automation_list', {}, ctx);
    expect(listed.content).toContain('Times in Europe/Berlin.');
    expect(listed.content).toContain('last run: never');

    const patch = JSON.stringify({ schedule: 'every day at 7:30', notify: 'phone' });
    const updated = await tools.invoke('automation_update', { automation: 'brief', patch }, ctx);
    expect(updated.content).toContain('every day at 7:30 [30 7 * * *]; next run Mon 7 Dec 2026, 07:30');
    expect(updated.content).toContain('notifies phone');

    const deleted = await tools.invoke('automation_delete', { automation: 'brief', confirm: true }, ctx);
    expect(deleted.content).toBe('Deleted the automation brief.');
    expect((await tools.invoke('automation_list', {}, ctx)).content).toBe('No automations yet.');
  });

  it('a bad spec is refused before anyone is asked, naming the field', async () => {
    const { tools } = await setUp();
    const ctx = tools.turn();
    const bad = JSON.stringify({ name: 'x', schedule: 'every day at 31:00', prompt: 'p' });
    const refusal = await tools.preflight('automation_create', { spec: bad }, ctx);
    expect(refusal?.content).toContain('schedule: "every day at 31:00" cannot be read');
    const agent = JSON.stringify({ name: 'x', schedule: 'every hour', prompt: 'p', agent: 'writer' });
    expect((await tools.preflight('automation_create', { spec: agent }, ctx))?.content).toContain(
      'agent: there is no agent named "writer"; the configured agents are researcher',
    );
    const missing = await tools.preflight(
      'automation_update',
      { automation: 'nope', patch: '{"prompt":"p"}' },
      ctx,
    );
    expect(missing?.content).toContain('"nope"');
    expect((await tools.invoke('automation_list', {}, ctx)).content).toBe('No automations yet.');
  });

  it('are not offered without a desk', async () => {
    bench = await makeBench();
    const names = toolsOn(bench).providers.flatMap((p) => [...p.tools.keys()]);
    expect(names.filter((n) => n.startsWith('automation_'))).toEqual([]);
  });
});
