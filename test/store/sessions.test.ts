import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { StoreNotFoundError } from '../../src/core/store-errors.js';
import { openTestStore } from './store-fixtures.js';

describe('sessions', () => {
  it('round-trips a session with every field', () => {
    const store = openTestStore();
    const made = store.createSession({
      id: 'chat-1',
      title: 'Trip',
      agent: 'planner',
      provider: 'anthropic',
      model: 'm',
    });
    expect(made).toMatchObject({
      id: 'chat-1',
      title: 'Trip',
      agent: 'planner',
      provider: 'anthropic',
      model: 'm',
    });
    expect(made.toolsUsed).toEqual([]);
    expect(Date.parse(made.createdAt)).not.toBeNaN();
    const changed = store.updateSession('chat-1', { surfaceStamp: 'gen-7', model: 'm2' });
    expect(changed).toMatchObject({ title: 'Trip', model: 'm2', surfaceStamp: 'gen-7', agent: 'planner' });
    expect(store.getSession('chat-1')).toEqual(changed);
    expect(store.getSession('nope')).toBeUndefined();
  });

  it('gives ids when none are asked for and refuses a repeated or blank one', () => {
    const store = openTestStore();
    const a = store.createSession();
    const b = store.createSession();
    expect(a.id).toMatch(/^s-[0-9a-z]{10}$/);
    expect(a.id).not.toBe(b.id);
    expect(() => store.createSession({ id: a.id })).toThrow(/already exists/);
    expect(() => store.createSession({ id: '  ' })).toThrow(InputError);
    expect(() => store.updateSession('missing', { title: 'x' })).toThrow(StoreNotFoundError);
  });

  it('keeps the tools used in first-use order, without repeats', () => {
    const store = openTestStore();
    const s = store.createSession();
    store.addToolsUsed(s.id, ['grep', 'read_file']);
    store.addToolsUsed(s.id, ['read_file', 'mcp/github/search']);
    expect(store.getSession(s.id)?.toolsUsed).toEqual(['grep', 'read_file', 'mcp/github/search']);
    expect(() => store.addToolsUsed('missing', ['grep'])).toThrow(StoreNotFoundError);
  });

  it('lists the most recently used session first', () => {
    let clock = 1_000;
    const store = openTestStore(undefined, { now: () => clock++ });
    const old = store.createSession({ title: 'old' });
    const fresh = store.createSession({ title: 'fresh' });
    store.startTurn({ sessionId: old.id, userText: 'back to this one' });
    expect(store.listSessions().map((s) => s.id)).toEqual([old.id, fresh.id]);
    expect(store.listSessions({ limit: 1 }).map((s) => s.id)).toEqual([old.id]);
    expect(() => store.listSessions({ limit: 0 })).toThrow(/limit/);
  });

  it("tells a subagent leaf's child session from one a person started, and lists either kind alone", () => {
    let clock = 1_000;
    const store = openTestStore(undefined, { now: () => clock++ });
    const parent = store.createSession({ title: 'morning round' });
    const other = store.createSession({ title: 'other' });
    const leaves = [0, 1, 2].map((i) => ({ title: `Leaf ${i}`, contract: { task: `task ${i}` } }));
    const batch = store.createBatch({ parentSessionId: parent.id, title: 'Morning', leaves });
    // Two leaves claimed (each in its child session), the third never started.
    const children = [0, 1].map((i) => {
      const child = store.createSession({ title: `Leaf ${i}` });
      store.claimLeaf(batch.leaves[i]?.id as string, child.id);
      return child.id;
    });
    const all = store.listSessions();
    expect(all.map((s) => [s.id, s.parentSessionId, s.childSessions])).toEqual([
      [children[1], parent.id, 0],
      [children[0], parent.id, 0],
      [other.id, undefined, 0],
      [parent.id, undefined, 2],
    ]);
    expect(store.listSessions({ topLevel: true }).map((s) => s.id)).toEqual([other.id, parent.id]);
    expect(store.listSessions({ topLevel: true, limit: 1 }).map((s) => s.id)).toEqual([other.id]);
    expect(store.listSessions({ parentSessionId: parent.id }).map((s) => s.id)).toEqual([
      children[1],
      children[0],
    ]);
    expect(store.listSessions({ parentSessionId: other.id })).toEqual([]);
    expect(() => store.listSessions({ parentSessionId: 3 as never })).toThrow(InputError);
  });
});

describe('turns and messages', () => {
  it('starts a turn with its user message and names an untitled session after it', () => {
    const store = openTestStore();
    const s = store.createSession();
    const long = 'Please find every invoice from last spring and put the totals in a table for my accountant';
    const turn = store.startTurn({ sessionId: s.id, userText: long, owner: 'host:42' });
    expect(turn).toMatchObject({ sessionId: s.id, status: 'running', userText: long, owner: 'host:42' });
    expect(turn.endedAt).toBeUndefined();
    const title = store.getSession(s.id)?.title ?? '';
    expect(title.endsWith('…')).toBe(true);
    expect(title.length).toBeLessThanOrEqual(61);
    expect(long.startsWith(title.slice(0, -1))).toBe(true);
    store.startTurn({ sessionId: s.id, userText: 'second' });
    expect(store.getSession(s.id)?.title).toBe(title);
    expect(store.listMessages(s.id).map((m) => m.message)).toEqual([
      { role: 'user', content: long },
      { role: 'user', content: 'second' },
    ]);
    expect(() => store.startTurn({ sessionId: 'missing', userText: 'x' })).toThrow(StoreNotFoundError);
  });

  it('round-trips every kind of message in order, with wire and real names on tool results', () => {
    const store = openTestStore();
    const s = store.createSession();
    const turn = store.startTurn({ sessionId: s.id, userText: 'hi' });
    store.appendMessage(turn.id, {
      role: 'assistant',
      content: 'checking',
      toolCalls: [{ id: 'c1', name: 'mcp__notes__find', arguments: '{"q":"x"}' }],
    });
    store.appendMessage(
      turn.id,
      { role: 'tool', toolCallId: 'c1', name: 'mcp__notes__find', content: 'nothing', isError: true },
      { tool: 'mcp/notes/find' },
    );
    store.appendMessage(turn.id, { role: 'assistant', content: 'Nothing found.' });
    const all = store.listMessages(s.id);
    expect(all.map((m) => m.message)).toEqual([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: 'checking',
        toolCalls: [{ id: 'c1', name: 'mcp__notes__find', arguments: '{"q":"x"}' }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'mcp__notes__find', content: 'nothing', isError: true },
      { role: 'assistant', content: 'Nothing found.' },
    ]);
    expect(all[2]?.tool).toBe('mcp/notes/find');
    expect(all.every((m) => m.turnId === turn.id && m.sessionId === s.id)).toBe(true);
    expect(all.map((m) => m.seq)).toEqual([...all.map((m) => m.seq)].sort((a, b) => a - b));
    const after = store.listMessages(s.id, { afterSeq: all[1]!.seq, limit: 1 });
    expect(after.map((m) => m.message.content)).toEqual(['nothing']);
    expect(() =>
      store.appendMessage(turn.id, { role: 'tool', toolCallId: '', name: 'x', content: '', isError: false }),
    ).toThrow(/toolCallId/);
  });

  it('moves a turn only from the states it is allowed to leave', () => {
    const store = openTestStore();
    const s = store.createSession();
    const turn = store.startTurn({ sessionId: s.id, userText: 'go' });
    expect(store.setTurnStatus(turn.id, 'waiting_approval')).toBe(true);
    // Two resumers race for the waiting turn: one wins.
    const resume = { from: ['waiting_approval'] as const, owner: 'host:2' };
    expect(store.setTurnStatus(turn.id, 'running', resume)).toBe(true);
    expect(store.setTurnStatus(turn.id, 'running', resume)).toBe(false);
    expect(store.getTurn(turn.id)?.owner).toBe('host:2');
    expect(store.setTurnStatus(turn.id, 'failed', { error: 'provider down' })).toBe(true);
    const ended = store.getTurn(turn.id);
    expect(ended).toMatchObject({ status: 'failed', error: 'provider down' });
    expect(ended?.endedAt).toBeDefined();
    expect(store.setTurnStatus(turn.id, 'done')).toBe(false);
    expect(store.getTurn(turn.id)?.status).toBe('failed');
    expect(() => store.setTurnStatus('missing', 'done')).toThrow(StoreNotFoundError);
    expect(() => store.setTurnStatus(turn.id, 'finished' as never)).toThrow(/one of/);
  });

  it('finds the unfinished turns after a restart', () => {
    const path = openTestStore().path;
    const first = openTestStore(path);
    const s = first.createSession();
    const a = first.startTurn({ sessionId: s.id, userText: 'a' });
    const b = first.startTurn({ sessionId: s.id, userText: 'b' });
    first.startTurn({ sessionId: s.id, userText: 'c' });
    first.setTurnStatus(a.id, 'waiting_approval');
    first.setTurnStatus(b.id, 'done');
    const second = openTestStore(path);
    const open = second.listTurns({ status: ['running', 'waiting_approval'] });
    expect(open.map((t) => t.userText)).toEqual(['a', 'c']);
    expect(second.listTurns({ sessionId: s.id, status: 'done' }).map((t) => t.id)).toEqual([b.id]);
    expect(() => second.listTurns({ status: 'sleeping' as never })).toThrow(/one of/);
  });
});
