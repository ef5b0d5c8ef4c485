import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { StoreNotFoundError } from '../../src/core/store-errors.js';
import { openTestStore } from './store-fixtures.js';

describe('memories', () => {
  it('saves, lists newest first and filters by tag', () => {
    let clock = 1_000;
    const store = openTestStore(undefined, { now: () => (clock += 10) });
    const s = store.createSession();
    const dentist = store.saveMemory({
      text: 'Dentist is Dr. Okafor on Elm Street',
      tags: ['Health', ' people '],
    });
    const wifi = store.saveMemory({ text: 'The office wifi password is on the fridge', sessionId: s.id });
    expect(dentist.tags).toEqual(['health', 'people']);
    expect(wifi.sessionId).toBe(s.id);
    expect(store.listMemories().map((m) => m.id)).toEqual([wifi.id, dentist.id]);
    expect(store.listMemories({ tag: 'HEALTH' }).map((m) => m.id)).toEqual([dentist.id]);
    expect(store.listMemories({ limit: 1 })).toHaveLength(1);
  });

  it('recalls by any word, prefixes and accents included, best match first', () => {
    const store = openTestStore();
    const cafe = store.saveMemory({
      text: 'Coffee with Ana at the Café Nero every Tuesday',
      tags: ['social'],
    });
    const meeting = store.saveMemory({ text: 'Team meeting moved to Tuesday mornings', tags: ['work'] });
    store.saveMemory({ text: 'Passport expires in March' });
    expect(store.recallMemories('cafe').map((m) => m.id)).toEqual([cafe.id]);
    expect(store.recallMemories('meet').map((m) => m.id)).toEqual([meeting.id]);
    const tuesday = store.recallMemories('what happens on tuesday?');
    expect(new Set(tuesday.map((m) => m.id))).toEqual(new Set([cafe.id, meeting.id]));
    expect(store.recallMemories('tuesday coffee')[0]?.id).toBe(cafe.id);
    expect(store.recallMemories('tuesday', { tag: 'work' }).map((m) => m.id)).toEqual([meeting.id]);
    expect(store.recallMemories('social').map((m) => m.id)).toEqual([cafe.id]);
    expect(store.recallMemories('giraffe')).toEqual([]);
    expect(() => store.recallMemories('?!')).toThrow(/no words/);
    expect(() => store.recallMemories('"OR" NEAR(')).not.toThrow();
  });

  it('saving the same text again refreshes it and merges tags; forgetting removes it from recall', () => {
    const store = openTestStore();
    const first = store.saveMemory({ text: 'Likes green tea', tags: ['food'] });
    const again = store.saveMemory({ text: '  Likes green tea ', tags: ['drinks'] });
    expect(again.id).toBe(first.id);
    expect(again.tags).toEqual(['food', 'drinks']);
    expect(store.listMemories()).toHaveLength(1);
    expect(store.recallMemories('drinks').map((m) => m.id)).toEqual([first.id]);
    expect(store.forgetMemory(first.id)).toBe(true);
    expect(store.forgetMemory(first.id)).toBe(false);
    expect(store.recallMemories('green')).toEqual([]);
    expect(() => store.saveMemory({ text: '   ' })).toThrow(InputError);
    expect(() => store.saveMemory({ text: 'x', tags: 'food' as never })).toThrow(/list of strings/);
  });
});

describe('tasks', () => {
  it('creates, lists by status and updates tasks', () => {
    const store = openTestStore();
    const s = store.createSession();
    const call = store.createTask({ title: 'Call the bank', detail: 'about the card', sessionId: s.id });
    const file = store.createTask({ title: 'File taxes', status: 'in_progress' });
    expect(call).toMatchObject({
      title: 'Call the bank',
      detail: 'about the card',
      status: 'pending',
      sessionId: s.id,
    });
    expect(file.detail).toBe('');
    expect(store.listTasks().map((t) => t.id)).toEqual([call.id, file.id]);
    expect(store.listTasks({ status: 'in_progress' }).map((t) => t.id)).toEqual([file.id]);
    expect(store.listTasks({ sessionId: s.id }).map((t) => t.id)).toEqual([call.id]);

    const done = store.updateTask(call.id, { status: 'completed' });
    expect(done).toMatchObject({ status: 'completed', title: 'Call the bank', detail: 'about the card' });
    expect(store.getTask(call.id)).toEqual(done);
    expect(store.listTasks({ status: ['pending', 'in_progress'] }).map((t) => t.id)).toEqual([file.id]);
  });

  it('refuses bad input with a clear error', () => {
    const store = openTestStore();
    expect(() => store.createTask({ title: '' })).toThrow(/task title/);
    expect(() => store.createTask({ title: 'x', status: 'later' as never })).toThrow(
      /pending, in_progress, completed, cancelled/,
    );
    expect(() => store.updateTask('task-none', { status: 'completed' })).toThrow(StoreNotFoundError);
    const t = store.createTask({ title: 'x' });
    expect(() => store.updateTask(t.id, { status: 'done' as never })).toThrow(/task status/);
  });
});
