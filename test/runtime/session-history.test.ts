import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/model.js';
import { messageChars, requestChars } from '../../src/runtime/context/token-estimate.js';
import type { ToolSurface } from '../../src/runtime/surface/tool-surface.js';
import { resultsInCallOrder } from '../../src/runtime/turn/results-in-call-order.js';
import { SessionHistories } from '../../src/runtime/turn/session-histories.js';
import { SessionHistory } from '../../src/runtime/turn/session-history.js';
import { wireHistory } from '../../src/runtime/turn/wire-history.js';
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

describe('SessionHistory.wrote', () => {
  it('takes in what this process stored right after the last message kept; the next read brings anything else, in order', async () => {
    const store = openSessionStore({ path: ':memory:' });
    // The rows each read brings back: what was taken in is not read again.
    const readBack: string[][] = [];
    const counted = Object.create(store) as typeof store;
    counted.listMessages = async (id, page) => {
      const rows = await store.listMessages(id, page);
      readBack.push(rows.map((m) => m.message.content));
      return rows;
    };
    try {
      const session = await store.createSession();
      const turn = await store.startTurn({ sessionId: session.id, userText: 'one' });
      const history = new SessionHistory(session.id);
      await history.messages(counted);
      history.wrote((await store.recordModelReply(turn.id, { content: 'two' })).message);
      expect((await history.messages(counted)).map((m) => m.message.content)).toEqual(['one', 'two']);
      expect(readBack.at(-1)).toEqual([]);

      // Another session's message between the last kept and this one: not taken, read in its place.
      const other = await store.createSession();
      await store.startTurn({ sessionId: other.id, userText: 'elsewhere' });
      history.wrote(await store.appendMessage(turn.id, { role: 'assistant', content: 'three' }));
      // Another writer's message of this session, then one of ours after it: ours is not taken either.
      await store.appendMessage(turn.id, { role: 'assistant', content: 'four' });
      history.wrote(await store.appendMessage(turn.id, { role: 'assistant', content: 'five' }));
      const all = await history.messages(counted);
      expect(readBack.at(-1)).toEqual(['three', 'four', 'five']);
      expect(all).toEqual(await store.listMessages(session.id));

      // Two writes that come back out of order: the first in seq is taken, the other read.
      const six = await store.appendMessage(turn.id, { role: 'assistant', content: 'six' });
      const seven = await store.appendMessage(turn.id, { role: 'assistant', content: 'seven' });
      history.wrote(seven);
      history.wrote(six);
      history.wrote(six);
      expect(await history.messages(counted)).toEqual(await store.listMessages(session.id));
      expect(readBack.at(-1)).toEqual(['seven']);
    } finally {
      await store.close();
    }
  });
});

describe('SessionHistory.forRequest', () => {
  it('gives what making the whole conversation ready would, request after request and surface after surface', async () => {
    const store = openSessionStore({ path: ':memory:' });
    // Only its names are read here: a surface offering nothing, so every name travels in its wire form.
    const surface = (): ToolSurface => ({ byName: new Map() }) as unknown as ToolSurface;
    const whole = async (on: ToolSurface) =>
      wireHistory(resultsInCallOrder((await store.listMessages(session.id)).map((m) => m.message)), on);
    const session = await store.createSession();
    try {
      const turn = await store.startTurn({ sessionId: session.id, userText: 'find my notes' });
      const history = new SessionHistory(session.id);
      const first = surface();
      const calls = ['c1', 'c2'].map((id) => ({ id, name: 'notes/find', arguments: `{"q":"${id}"}` }));
      await store.appendMessage(turn.id, { role: 'assistant', content: '', toolCalls: calls });
      await store.appendMessage(turn.id, {
        role: 'tool',
        toolCallId: 'c2',
        name: 'notes/find',
        content: 'second',
        isError: false,
      });
      expect(await history.forRequest(store, first)).toEqual(await whole(first));
      // The first call's result settles after the request above: it still goes before the second's.
      await store.appendMessage(turn.id, {
        role: 'tool',
        toolCallId: 'c1',
        name: 'notes/find',
        content: 'first',
        isError: false,
      });
      const next = await history.forRequest(store, first);
      expect(next).toEqual(await whole(first));
      expect(next.map((m) => m.content)).toEqual(['find my notes', '', 'first', 'second']);
      expect(next[2]).toMatchObject({ name: 'notes_find' });
      const second = surface();
      expect(await history.forRequest(store, second)).toEqual(await whole(second));
    } finally {
      await store.close();
    }
  });
});

describe('SessionHistory.forRequest, frozen', () => {
  it('hands out messages nothing can change, their calls included, so a provider may reuse their wire forms', async () => {
    const store = openSessionStore({ path: ':memory:' });
    const surface = { byName: new Map() } as unknown as ToolSurface;
    try {
      const session = await store.createSession();
      const turn = await store.startTurn({ sessionId: session.id, userText: 'find my notes' });
      const calls = [{ id: 'c1', name: 'notes/find', arguments: '{}' }];
      await store.appendMessage(turn.id, { role: 'assistant', content: '', toolCalls: calls });
      const messages = await new SessionHistory(session.id).forRequest(store, surface);
      expect(messages).toHaveLength(2);
      const reply = messages[1] as Extract<ChatMessage, { role: 'assistant' }>;
      for (const frozen of [messages[0], reply, reply.toolCalls, reply.toolCalls?.[0]])
        expect(Object.isFrozen(frozen)).toBe(true);
      expect(() => {
        (messages[0] as { content: string }).content = 'changed';
      }).toThrow(TypeError);
    } finally {
      await store.close();
    }
  });
});

describe('SessionHistory.forRequest, message by message', () => {
  it('puts results in call order as the whole conversation would, whatever comes next', async () => {
    const store = openSessionStore({ path: ':memory:' });
    const surface = { byName: new Map() } as unknown as ToolSurface;
    // A fixed walk through every kind of next message: replies with one, two or three calls whose
    // results settle in any order, results coming after a later message, text-only replies.
    let state = 7;
    const next = (n: number) => {
      state = (state * 48271) % 2147483647;
      return Math.floor((state / 2147483647) * n);
    };
    try {
      const session = await store.createSession();
      const turn = await store.startTurn({ sessionId: session.id, userText: 'go' });
      const history = new SessionHistory(session.id);
      const pending: string[] = [];
      for (let step = 0; step < 160; step += 1) {
        const kind = next(5);
        if (kind === 0 || pending.length === 0) {
          const calls = Array.from({ length: next(4) }, (_, i) => ({
            id: `c${step}_${i}`,
            name: 'notes/find',
            arguments: '{}',
          }));
          pending.push(...calls.map((c) => c.id));
          await store.appendMessage(turn.id, { role: 'assistant', content: `r${step}`, toolCalls: calls });
        } else if (kind === 4) {
          await store.appendMessage(turn.id, { role: 'user', content: `u${step}` });
        } else {
          const [id] = pending.splice(next(pending.length), 1);
          const result = {
            role: 'tool',
            toolCallId: id,
            name: 'notes/find',
            content: `t${step}`,
            isError: false,
          };
          await store.appendMessage(turn.id, result as ChatMessage);
        }
        if (next(3) === 0) continue;
        const whole = wireHistory(
          resultsInCallOrder((await store.listMessages(session.id)).map((m) => m.message)),
          surface,
        );
        expect(await history.forRequest(store, surface)).toEqual(whole);
      }
    } finally {
      await store.close();
    }
  });
});

describe('the size of the conversation a request carries', () => {
  it('is the sum over its messages, request after request and surface after surface', async () => {
    const store = openSessionStore({ path: ':memory:' });
    const surface = (): ToolSurface => ({ byName: new Map() }) as unknown as ToolSurface;
    const walked = (messages: readonly ChatMessage[]) =>
      messages.reduce((sum, m) => sum + messageChars(m), 0);
    const estimate = (messages: ChatMessage[]) => requestChars({ system: '', messages, tools: [] });
    try {
      const session = await store.createSession();
      const turn = await store.startTurn({ sessionId: session.id, userText: 'count my words' });
      const history = new SessionHistory(session.id);
      const first = surface();
      const opening = await history.forRequest(store, first);
      expect(estimate(opening)).toBe(walked(opening));
      const calls = [{ id: 'c1', name: 'words/count', arguments: '{"text":"a b c"}' }];
      await store.appendMessage(turn.id, { role: 'assistant', content: '', toolCalls: calls });
      const result = { role: 'tool', toolCallId: 'c1', name: 'words/count', content: '3', isError: false };
      await store.appendMessage(turn.id, result as ChatMessage);
      const next = await history.forRequest(store, first);
      expect(next).toHaveLength(3);
      expect(estimate(next)).toBe(walked(next));
      const again = await history.forRequest(store, surface());
      expect(estimate(again)).toBe(walked(again));
      // A list made otherwise (a copy, one changed after) is walked.
      const copy = [...next, { role: 'user', content: 'more' } as ChatMessage];
      expect(estimate(copy)).toBe(walked(copy));
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
