import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { newCall, openTestStore, turnWithCalls } from './store-fixtures.js';

// Values a JavaScript caller or a JSON body can hand the store despite the types.
const NUMBER = 5 as never;
const OBJECT = { text: 'hi' } as never;

describe('text fields given something other than text', () => {
  it('are refused with an InputError naming the field, not stored as "5.0"', () => {
    const store = openTestStore();
    expect(() => store.createSession({ title: NUMBER })).toThrow(InputError);
    expect(() => store.createSession({ agent: NUMBER })).toThrow(/agent/);
    expect(store.listSessions()).toEqual([]);
    const s = store.createSession({ title: 'kept' });
    expect(() => store.updateSession(s.id, { title: NUMBER })).toThrow(/title/);
    expect(store.getSession(s.id)?.title).toBe('kept');
    expect(() => store.startTurn({ sessionId: s.id, userText: 'hi', owner: NUMBER })).toThrow(/owner/);
    expect(store.listTurns()).toEqual([]);
    expect(() => store.createTask({ title: 'x', detail: NUMBER })).toThrow(/detail/);
    expect(store.listTasks()).toEqual([]);
  });

  it('a tool result whose content is not text is refused with an InputError, and the call stays running', () => {
    const store = openTestStore();
    const { turn } = turnWithCalls(store, [newCall('c1', 'bash', { cmd: 'date' }, { status: 'approved' })]);
    store.claimToolCall(turn.id, 'c1');
    const settle = () =>
      store.recordToolResult(turn.id, 'c1', { status: 'done', content: OBJECT, isError: false });
    expect(settle).toThrow(InputError);
    expect(settle).toThrow(/content/);
    expect(store.getToolCall(turn.id, 'c1')?.status).toBe('running');
  });

  it('a memory tag filter that is not text is refused with an InputError', () => {
    const store = openTestStore();
    store.saveMemory({ text: 'likes tea', tags: ['food'] });
    expect(() => store.listMemories({ tag: NUMBER })).toThrow(InputError);
    expect(() => store.recallMemories('tea', { tag: NUMBER })).toThrow(/tag/);
  });
});

describe('a message page asked from a position that is not one', () => {
  it('is refused with an InputError naming afterSeq, not answered with an empty page', () => {
    const store = openTestStore();
    const s = store.createSession({ title: 't' });
    const turn = store.startTurn({ sessionId: s.id, userText: 'one' });
    store.appendMessage(turn.id, { role: 'assistant', content: 'two' });
    const [first] = store.listMessages(s.id);
    expect(store.listMessages(s.id, { afterSeq: first?.seq }).map((m) => m.message.content)).toEqual(['two']);
    for (const bad of ['1', Number.NaN, 1.5, -1, Number.POSITIVE_INFINITY]) {
      expect(() => store.listMessages(s.id, { afterSeq: bad as never })).toThrow(/afterSeq/);
    }
    expect(store.listMessages(s.id, { afterSeq: 0 })).toHaveLength(2);
  });
});

describe('an id with half of a character (a lone UTF-16 surrogate)', () => {
  it('is refused when a session is created, since SQLite would store and return a different id', () => {
    const store = openTestStore();
    const create = () => store.createSession({ id: 'host-\uD83D' });
    expect(create).toThrow(InputError);
    expect(create).toThrow(/half of a character/);
    expect(store.listSessions()).toEqual([]);
  });

  it('a whole emoji in an id is kept, and the stored id reads back the same', () => {
    const store = openTestStore();
    const s = store.createSession({ id: 'host-\u{1F600}' });
    expect(s.id).toBe('host-\u{1F600}');
    const turn = store.startTurn({ sessionId: s.id, userText: 'hi' });
    expect(turn.sessionId).toBe(s.id);
  });
});
