import { describe, expect, it } from 'vitest';
import { openTestStore, tempDbPath } from './store-fixtures.js';

describe('taking over a turn', () => {
  it('succeeds for exactly one of two processes that saw the same dead owner', () => {
    const path = tempDbPath();
    const first = openTestStore(path);
    const second = openTestStore(path);
    const session = first.createSession({ provider: 'openai', model: 'gpt-test' });
    const turn = first.startTurn({ sessionId: session.id, userText: 'hi', owner: 'host:1' });
    const move = (owner: string) => ({
      from: ['running', 'waiting_approval'] as const,
      owner,
      fromOwner: 'host:1',
    });
    expect(first.setTurnStatus(turn.id, 'running', move('host:2'))).toBe(true);
    expect(second.setTurnStatus(turn.id, 'running', move('host:3'))).toBe(false);
    expect(second.getTurn(turn.id)?.owner).toBe('host:2');
  });

  it('matches a turn that has no owner with null, and moves as before when no owner is named', () => {
    const store = openTestStore();
    const session = store.createSession({ provider: 'openai', model: 'gpt-test' });
    const turn = store.startTurn({ sessionId: session.id, userText: 'hi' });
    expect(store.setTurnStatus(turn.id, 'running', { owner: 'host:2', fromOwner: 'host:9' })).toBe(false);
    expect(store.setTurnStatus(turn.id, 'running', { owner: 'host:2', fromOwner: null })).toBe(true);
    expect(store.setTurnStatus(turn.id, 'waiting_approval', {})).toBe(true);
  });
});

describe("a turn owner's heartbeat", () => {
  it('is set when a turn gets an owner, and refreshed only on that owner’s unfinished turns', () => {
    let clock = Date.parse('2030-01-01T00:00:00.000Z');
    const store = openTestStore(undefined, { now: () => clock });
    const session = store.createSession({ provider: 'openai', model: 'gpt-test' });
    const mine = store.startTurn({ sessionId: session.id, userText: 'a', owner: 'host:1' });
    const ended = store.startTurn({ sessionId: session.id, userText: 'b', owner: 'host:1' });
    const theirs = store.startTurn({ sessionId: session.id, userText: 'c', owner: 'host:2' });
    const none = store.startTurn({ sessionId: session.id, userText: 'd' });
    expect(mine.ownerSeenAt).toBe('2030-01-01T00:00:00.000Z');
    expect(none.ownerSeenAt).toBeUndefined();
    store.setTurnStatus(ended.id, 'done');
    clock += 60_000;
    expect(store.touchTurnOwner('host:1')).toBe(1);
    expect(store.getTurn(mine.id)?.ownerSeenAt).toBe('2030-01-01T00:01:00.000Z');
    expect(store.getTurn(ended.id)?.ownerSeenAt).toBe('2030-01-01T00:00:00.000Z');
    expect(store.getTurn(theirs.id)?.ownerSeenAt).toBe('2030-01-01T00:00:00.000Z');
    clock += 60_000;
    // Taking a turn over marks its new owner alive at once.
    store.setTurnStatus(theirs.id, 'running', { owner: 'host:3', fromOwner: 'host:2' });
    expect(store.getTurn(theirs.id)?.ownerSeenAt).toBe('2030-01-01T00:02:00.000Z');
  });
});
