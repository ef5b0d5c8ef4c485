import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { StoreNotFoundError } from '../../../src/core/store-errors.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Memories (saved, recalled by word, refreshed, forgotten) and tasks (made, listed by status, updated). */
export function memoryTaskCases(subject: StoreSubject): void {
  describe('memories', () => {
    it('saves, lists newest first and filters by tag', async () => {
      let clock = 1_000;
      const store = await subject.open({ now: () => (clock += 10) });
      const s = await store.createSession();
      const dentist = await store.saveMemory({
        text: 'Dentist is Dr. Okafor on Elm Street',
        tags: ['Health', ' people '],
      });
      const wifi = await store.saveMemory({
        text: 'The office wifi password is on the fridge',
        sessionId: s.id,
      });
      expect(dentist.tags).toEqual(['health', 'people']);
      expect(wifi.sessionId).toBe(s.id);
      expect((await store.listMemories()).map((m) => m.id)).toEqual([wifi.id, dentist.id]);
      expect((await store.listMemories({ tag: 'HEALTH' })).map((m) => m.id)).toEqual([dentist.id]);
      expect(await store.listMemories({ limit: 1 })).toHaveLength(1);
    });

    it('recalls by any word, prefixes and accents included, best match first', async () => {
      const store = await subject.open();
      const cafe = await store.saveMemory({
        text: 'Coffee with Ana at the Café Nero every Tuesday',
        tags: ['social'],
      });
      const meeting = await store.saveMemory({
        text: 'Team meeting moved to Tuesday mornings',
        tags: ['work'],
      });
      await store.saveMemory({ text: 'Passport expires in March' });
      expect((await store.recallMemories('cafe')).map((m) => m.id)).toEqual([cafe.id]);
      expect((await store.recallMemories('meet')).map((m) => m.id)).toEqual([meeting.id]);
      const tuesday = await store.recallMemories('what happens on tuesday?');
      expect(new Set(tuesday.map((m) => m.id))).toEqual(new Set([cafe.id, meeting.id]));
      expect((await store.recallMemories('tuesday coffee'))[0]?.id).toBe(cafe.id);
      expect((await store.recallMemories('tuesday', { tag: 'work' })).map((m) => m.id)).toEqual([meeting.id]);
      expect((await store.recallMemories('social')).map((m) => m.id)).toEqual([cafe.id]);
      expect(await store.recallMemories('giraffe')).toEqual([]);
      await expect(store.recallMemories('?!')).rejects.toThrow(/no words/);
      await expect(store.recallMemories('"OR" NEAR(')).resolves.toBeInstanceOf(Array);
    });

    it('saving the same text again refreshes it and merges tags; forgetting removes it from recall', async () => {
      const store = await subject.open();
      const first = await store.saveMemory({ text: 'Likes green tea', tags: ['food'] });
      const again = await store.saveMemory({ text: '  Likes green tea ', tags: ['drinks'] });
      expect(again.id).toBe(first.id);
      expect(again.tags).toEqual(['food', 'drinks']);
      expect(await store.listMemories()).toHaveLength(1);
      expect((await store.recallMemories('drinks')).map((m) => m.id)).toEqual([first.id]);
      expect(await store.forgetMemory(first.id)).toBe(true);
      expect(await store.forgetMemory(first.id)).toBe(false);
      expect(await store.recallMemories('green')).toEqual([]);
      await expect(store.saveMemory({ text: '   ' })).rejects.toThrow(InputError);
      await expect(store.saveMemory({ text: 'x', tags: 'food' as never })).rejects.toThrow(/list of strings/);
    });
  });

  describe('tasks', () => {
    it('creates, lists by status and updates tasks', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const call = await store.createTask({
        title: 'Call the bank',
        detail: 'about the card',
        sessionId: s.id,
      });
      const file = await store.createTask({ title: 'File taxes', status: 'in_progress' });
      expect(call).toMatchObject({
        title: 'Call the bank',
        detail: 'about the card',
        status: 'pending',
        sessionId: s.id,
      });
      expect(file.detail).toBe('');
      expect((await store.listTasks()).map((t) => t.id)).toEqual([call.id, file.id]);
      expect((await store.listTasks({ status: 'in_progress' })).map((t) => t.id)).toEqual([file.id]);
      expect((await store.listTasks({ sessionId: s.id })).map((t) => t.id)).toEqual([call.id]);

      const done = await store.updateTask(call.id, { status: 'completed' });
      expect(done).toMatchObject({ status: 'completed', title: 'Call the bank', detail: 'about the card' });
      expect(await store.getTask(call.id)).toEqual(done);
      expect((await store.listTasks({ status: ['pending', 'in_progress'] })).map((t) => t.id)).toEqual([
        file.id,
      ]);
    });

    it('refuses bad input with a clear error', async () => {
      const store = await subject.open();
      await expect(store.createTask({ title: '' })).rejects.toThrow(/task title/);
      await expect(store.createTask({ title: 'x', status: 'later' as never })).rejects.toThrow(
        /pending, in_progress, completed, cancelled/,
      );
      await expect(store.updateTask('task-none', { status: 'completed' })).rejects.toThrow(
        StoreNotFoundError,
      );
      const t = await store.createTask({ title: 'x' });
      await expect(store.updateTask(t.id, { status: 'done' as never })).rejects.toThrow(/task status/);
    });
  });
}
