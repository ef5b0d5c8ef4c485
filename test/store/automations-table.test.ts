import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { StoreNotFoundError } from '../../src/core/store-errors.js';
import { BACK_ENDS, openedOn } from './back-ends.js';

const AT = Date.parse('2026-12-07T08:00:00Z');
const input = {
  name: 'brief',
  schedule: 'every day at 08:00',
  cron: '0 8 * * *',
  prompt: 'Go.',
  nextRunAt: AT,
};

describe.each(BACK_ENDS)('the automations table (%s)', (_name, fresh) => {
  it('keeps an automation, refuses a second of the same name, and finds it by id or name', async () => {
    const store = await openedOn(await fresh());
    const made = await store.createAutomation({ ...input, tools: ['read_file'], budget: { tokens: 500 } });
    expect(made).toMatchObject({
      name: 'brief',
      tools: ['read_file'],
      budget: { tokens: 500 },
      enabled: true,
    });
    expect(made.nextRunAt).toBe('2026-12-07T08:00:00.000Z');
    expect((await store.getAutomation(made.id))?.name).toBe('brief');
    await expect(store.createAutomation(input)).rejects.toThrow(InputError);
    await expect(store.createAutomation(input)).rejects.toThrow(
      'An automation named "brief" already exists.',
    );
  });

  it('a claim holds only for the occurrence read: the second claimer of it gets false', async () => {
    const db = await fresh();
    const a = await openedOn(db);
    const b = await openedOn(db);
    const made = await a.createAutomation(input);
    const claim = { id: made.id, scheduledFor: AT, nextRunAt: AT + 86_400_000, at: AT + 5 };
    expect(await a.claimAutomationRun({ ...claim, owner: 'a' })).toBe(true);
    expect(await b.claimAutomationRun({ ...claim, owner: 'b' })).toBe(false);
    expect(await b.listDueAutomations(AT + 10)).toEqual([]);
    // only the claimer's finish is kept
    expect(await b.finishAutomationRun({ ...claim, owner: 'b' }, { status: 'done', summary: 'b' })).toBe(
      false,
    );
    expect(
      await a.finishAutomationRun(
        { ...claim, owner: 'a' },
        { status: 'done', summary: 'a', sessionId: 's-1' },
      ),
    ).toBe(true);
    expect((await b.getAutomation('brief'))?.lastRun).toMatchObject({
      scheduledFor: '2026-12-07T08:00:00.000Z',
      status: 'done',
      summary: 'a',
      sessionId: 's-1',
      lateMs: 5,
    });
  });

  it('an automation turned off is neither due nor claimed; update and delete name what is missing', async () => {
    const store = await openedOn(await fresh());
    const made = await store.createAutomation(input);
    await store.updateAutomation('brief', { enabled: false });
    expect(await store.listDueAutomations(AT + 1)).toEqual([]);
    const claim = { id: made.id, scheduledFor: AT, nextRunAt: null, owner: 'a', at: AT };
    expect(await store.claimAutomationRun(claim)).toBe(false);
    await expect(store.updateAutomation('nope', { prompt: 'x' })).rejects.toThrow(StoreNotFoundError);
    expect(await store.deleteAutomation('brief')).toBe(true);
    expect(await store.deleteAutomation('brief')).toBe(false);
  });
});
