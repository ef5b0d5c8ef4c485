import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { newCall, turnWithCalls } from '../record-fixtures.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Bad input refused with an InputError naming what is wrong, and nothing written. */
export function inputCases(subject: StoreSubject): void {
  // Values a JavaScript caller or a JSON body can hand the store despite the types.
  const NUMBER = 5 as never;
  const OBJECT = { text: 'hi' } as never;

  describe('text fields given something other than text', () => {
    it('are refused with an InputError naming the field, not stored as "5.0"', async () => {
      const store = await subject.open();
      await expect(store.createSession({ title: NUMBER })).rejects.toThrow(InputError);
      await expect(store.createSession({ agent: NUMBER })).rejects.toThrow(/agent/);
      expect(await store.listSessions()).toEqual([]);
      const s = await store.createSession({ title: 'kept' });
      await expect(store.updateSession(s.id, { title: NUMBER })).rejects.toThrow(/title/);
      expect((await store.getSession(s.id))?.title).toBe('kept');
      await expect(store.startTurn({ sessionId: s.id, userText: 'hi', owner: NUMBER })).rejects.toThrow(
        /owner/,
      );
      expect(await store.listTurns()).toEqual([]);
      await expect(store.createTask({ title: 'x', detail: NUMBER })).rejects.toThrow(/detail/);
      expect(await store.listTasks()).toEqual([]);
    });

    it('a tool result whose content is not text is refused with an InputError, and the call stays running', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, [
        newCall('c1', 'bash', { cmd: 'date' }, { status: 'approved' }),
      ]);
      await store.claimToolCall(turn.id, 'c1');
      const settle = () =>
        store.recordToolResult(turn.id, 'c1', { status: 'done', content: OBJECT, isError: false });
      await expect(settle()).rejects.toThrow(InputError);
      await expect(settle()).rejects.toThrow(/content/);
      expect((await store.getToolCall(turn.id, 'c1'))?.status).toBe('running');
    });

    it('a memory tag filter that is not text is refused with an InputError', async () => {
      const store = await subject.open();
      await store.saveMemory({ text: 'likes tea', tags: ['food'] });
      await expect(store.listMemories({ tag: NUMBER })).rejects.toThrow(InputError);
      await expect(store.recallMemories('tea', { tag: NUMBER })).rejects.toThrow(/tag/);
    });
  });

  describe('a message page asked from a position that is not one', () => {
    it('is refused with an InputError naming afterSeq, not answered with an empty page', async () => {
      const store = await subject.open();
      const s = await store.createSession({ title: 't' });
      const turn = await store.startTurn({ sessionId: s.id, userText: 'one' });
      await store.appendMessage(turn.id, { role: 'assistant', content: 'two' });
      const [first] = await store.listMessages(s.id);
      expect(
        (await store.listMessages(s.id, { afterSeq: first?.seq })).map((m) => m.message.content),
      ).toEqual(['two']);
      for (const bad of ['1', Number.NaN, 1.5, -1, Number.POSITIVE_INFINITY]) {
        await expect(store.listMessages(s.id, { afterSeq: bad as never })).rejects.toThrow(/afterSeq/);
      }
      expect(await store.listMessages(s.id, { afterSeq: 0 })).toHaveLength(2);
    });
  });

  describe('an id with half of a character (a lone UTF-16 surrogate)', () => {
    it('is refused when a session is created, since the store would keep and return a different id', async () => {
      const store = await subject.open();
      const create = () => store.createSession({ id: 'host-\uD83D' });
      await expect(create()).rejects.toThrow(InputError);
      await expect(create()).rejects.toThrow(/half of a character/);
      expect(await store.listSessions()).toEqual([]);
    });

    it('a whole emoji in an id is kept, and the stored id reads back the same', async () => {
      const store = await subject.open();
      const s = await store.createSession({ id: 'host-\u{1F600}' });
      expect(s.id).toBe('host-\u{1F600}');
      const turn = await store.startTurn({ sessionId: s.id, userText: 'hi' });
      expect(turn.sessionId).toBe(s.id);
    });
  });
}
