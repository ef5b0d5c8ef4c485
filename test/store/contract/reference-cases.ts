import { describe, expect, it } from 'vitest';
import { StoreNotFoundError } from '../../../src/core/store-errors.js';
import { commandScopeOf } from '../record-fixtures.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Records naming a session or approval that does not exist are refused, and nothing is written. */
export function referenceCases(subject: StoreSubject): void {
  describe('records that name a session or approval that does not exist', () => {
    it('a task for an unknown session is refused naming the session, and nothing is written', async () => {
      const store = await subject.open();
      await expect(store.createTask({ title: 'Call the bank', sessionId: 's-gone' })).rejects.toThrow(
        StoreNotFoundError,
      );
      await expect(store.createTask({ title: 'Call the bank', sessionId: 's-gone' })).rejects.toThrow(
        /session.*s-gone/,
      );
      expect(await store.listTasks()).toEqual([]);
    });

    it('a memory for an unknown session is refused naming the session, and nothing is written', async () => {
      const store = await subject.open();
      await expect(store.saveMemory({ text: 'likes tea', sessionId: 's-gone' })).rejects.toThrow(
        StoreNotFoundError,
      );
      await expect(store.saveMemory({ text: 'likes tea', sessionId: 's-gone' })).rejects.toThrow(
        /session.*s-gone/,
      );
      expect(await store.listMemories()).toEqual([]);
    });

    it('a grant citing an unknown approval is refused naming the approval, and nothing is written', async () => {
      const store = await subject.open();
      await expect(
        store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), approvalId: 'ap-gone' }),
      ).rejects.toThrow(StoreNotFoundError);
      await expect(
        store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), approvalId: 'ap-gone' }),
      ).rejects.toThrow(/approval.*ap-gone/);
      expect(await store.listGrants()).toEqual([]);
    });
  });
}
