import { describe, expect, it } from 'vitest';
import { StoreNotFoundError } from '../../src/core/store-errors.js';
import { commandScopeOf, openTestStore } from './store-fixtures.js';

describe('records that name a session or approval that does not exist', () => {
  it('a task for an unknown session is refused naming the session, and nothing is written', () => {
    const store = openTestStore();
    expect(() => store.createTask({ title: 'Call the bank', sessionId: 's-gone' })).toThrow(
      StoreNotFoundError,
    );
    expect(() => store.createTask({ title: 'Call the bank', sessionId: 's-gone' })).toThrow(
      /session.*s-gone/,
    );
    expect(store.listTasks()).toEqual([]);
  });

  it('a memory for an unknown session is refused naming the session, and nothing is written', () => {
    const store = openTestStore();
    expect(() => store.saveMemory({ text: 'likes tea', sessionId: 's-gone' })).toThrow(StoreNotFoundError);
    expect(() => store.saveMemory({ text: 'likes tea', sessionId: 's-gone' })).toThrow(/session.*s-gone/);
    expect(store.listMemories()).toEqual([]);
  });

  it('a grant citing an unknown approval is refused naming the approval, and nothing is written', () => {
    const store = openTestStore();
    expect(() =>
      store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), approvalId: 'ap-gone' }),
    ).toThrow(StoreNotFoundError);
    expect(() =>
      store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), approvalId: 'ap-gone' }),
    ).toThrow(/approval.*ap-gone/);
    expect(store.listGrants()).toEqual([]);
  });
});
