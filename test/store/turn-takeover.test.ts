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
