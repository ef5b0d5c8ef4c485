import { describe, expect, it } from 'vitest';
import {
  AutomationSpecError,
  automationSettings,
  cronOf,
  nextOccurrence,
  readCreateSpec,
  readPatchSpec,
} from '../../../src/runtime/automations/index.js';

describe('plain schedules become cron', () => {
  it.each([
    ['every weekday at 08:00', '0 8 * * 1-5'],
    ['every day at 7:30', '30 7 * * *'],
    ['Every Monday at 9', '0 9 * * 1'],
    ['every monday and thursday at 18:15', '15 18 * * 1,4'],
    ['every fri, mon at 5:30pm', '30 17 * * 1,5'],
    ['every weekend at 10am', '0 10 * * 0,6'],
    ['every sunday at 12am', '0 0 * * 0'],
    ['every 2 hours', '0 */2 * * *'],
    ['every 15 minutes', '*/15 * * * *'],
    ['every hour', '0 * * * *'],
    ['every minute', '* * * * *'],
    ['0 8 * * 1-5', '0 8 * * 1-5'],
  ])('%s → %s', (plain, cron) => {
    expect(cronOf(plain)).toBe(cron);
  });

  it.each([
    ['every day', 'not at what time'],
    ['every funday at 9', '"funday" is not a day of the week'],
    ['every day at 25:00', 'not a time of day'],
    ['every 90 minutes', 'must be 1 to 59'],
    ['61 * * * *', 'minute'],
    ['', 'empty'],
  ])('refuses %j, naming the schedule', (plain, why) => {
    const error = (() => {
      try {
        cronOf(plain);
      } catch (e) {
        return e as AutomationSpecError;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(AutomationSpecError);
    expect(error.field).toBe('schedule');
    expect(error.message).toMatch(/^schedule: /);
    expect(error.message).toContain(why);
  });

  it('works out the next run in the configured time zone', () => {
    const after = Date.parse('2026-12-05T12:00:00Z'); // a Saturday
    expect(new Date(nextOccurrence('0 8 * * 1-5', after, 'Europe/Berlin') as number).toISOString()).toBe(
      '2026-12-07T07:00:00.000Z',
    );
    expect(new Date(nextOccurrence('0 8 * * 1-5', after, 'America/New_York') as number).toISOString()).toBe(
      '2026-12-07T13:00:00.000Z',
    );
  });
});

describe('the config section', () => {
  it('refuses an unknown time zone, naming the key', () => {
    expect(() => automationSettings({ timeZone: 'Europe/Atlantis' })).toThrow(
      /^automations\.timeZone: "Europe\/Atlantis" is not a time zone/,
    );
  });

  it('refuses an unknown setting and a bad budget, naming them', () => {
    expect(() => automationSettings({ timezone: 'UTC' })).toThrow(/^automations\.timezone: is not a setting/);
    expect(() => automationSettings({ budget: { tokens: 0 } })).toThrow(/^automations\.budget\.tokens: /);
  });
});

describe('specs: each error names its field', () => {
  const ctx = {
    settings: automationSettings({ timeZone: 'UTC', budget: { modelRequests: 10, tokens: 50_000 } }),
    agents: ['researcher'],
    channels: ['phone'],
    now: Date.parse('2026-12-07T07:00:00Z'),
  };
  const good = { name: 'brief', schedule: 'every weekday at 08:00', prompt: 'Summarise my inbox.' };

  it('reads a good spec, with its first run', () => {
    const spec = readCreateSpec({ ...good, agent: 'researcher', tools: ['read_file'], notify: 'phone' }, ctx);
    expect(spec.cron).toBe('0 8 * * 1-5');
    expect(new Date(spec.nextRunAt as number).toISOString()).toBe('2026-12-07T08:00:00.000Z');
  });

  it.each([
    [{ ...good, name: undefined }, 'name: is required'],
    [{ ...good, prompt: '  ' }, 'prompt: must be non-empty text'],
    [{ ...good, schedule: 'every blue moon at 9' }, 'schedule: '],
    [
      { ...good, agent: 'writer' },
      'agent: there is no agent named "writer"; the configured agents are researcher',
    ],
    [{ ...good, tools: 'read_file' }, 'tools: must be a list'],
    [
      { ...good, notify: 'pager' },
      'notify: there is no notify channel named "pager"; the configured channels are phone',
    ],
    [{ ...good, budget: { tokens: 90_000 } }, 'budget.tokens: 90000 is more than a run may spend (50000'],
    [{ ...good, budget: { requests: 3 } }, 'budget.requests: is not a budget field'],
    [{ ...good, enabled: 'yes' }, 'enabled: must be true or false'],
    [{ ...good, shedule: 'x' }, 'shedule: is not a field of an automation (did you mean schedule?)'],
    ['not an object', 'spec: must be a JSON object'],
  ])('%j', (spec, message) => {
    expect(() => readCreateSpec(spec, ctx)).toThrow(message);
  });

  it('a patch: a new schedule moves the next run, turning it off clears it, null clears a field', () => {
    const current = { cron: '0 8 * * 1-5', enabled: true };
    expect(readPatchSpec({ schedule: 'every day at 7:30' }, current, ctx)).toMatchObject({
      cron: '30 7 * * *',
      nextRunAt: Date.parse('2026-12-07T07:30:00Z'),
    });
    expect(readPatchSpec({ enabled: false }, current, ctx)).toEqual({ enabled: false, nextRunAt: null });
    expect(readPatchSpec({ notify: null }, current, ctx)).toEqual({ notify: null });
    expect(() => readPatchSpec({}, current, ctx)).toThrow('patch: changes nothing');
  });
});
