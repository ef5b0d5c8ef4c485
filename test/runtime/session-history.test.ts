import { describe, expect, it } from 'vitest';
import { SessionHistories } from '../../src/runtime/turn/session-histories.js';
import { SessionHistory } from '../../src/runtime/turn/session-history.js';
import { openSessionStore } from '../../src/store/index.js';

describe('SessionHistory', () => {
  it('keeps each message once, in order, when reads overlap, and hands out copies', async () => {
    const store = openSessionStore({ path: ':memory:' });
    try {
      const session = await store.createSession();
      const turn = await store.startTurn({ sessionId: session.id, userText: 'one' });
      const history = new SessionHistory(session.id);
      const first = await history.messages(store);
      await store.appendMessage(turn.id, { role: 'assistant', content: 'two' });
      // Both ask after the same message; the second also sees a message the first missed.
      const early = history.messages(store);
      const late = history.messages(store);
      await store.appendMessage(turn.id, { role: 'assistant', content: 'three' });
      await Promise.all([early, late]);
      const all = await history.messages(store);
      expect(all.map((m) => m.message.content)).toEqual(['one', 'two', 'three']);
      expect(all).toEqual(await store.listMessages(session.id));
      expect(first.map((m) => m.message.content)).toEqual(['one']);
    } finally {
      await store.close();
    }
  });
});

describe('SessionHistories', () => {
  it('keeps the most recently used sessions, letting the oldest go', () => {
    const histories = new SessionHistories(2);
    const a = histories.of('a');
    const b = histories.of('b');
    expect(histories.of('a')).toBe(a);
    histories.of('c');
    expect(histories.of('a')).toBe(a);
    expect(histories.of('b')).not.toBe(b);
  });
});
