import { describe, expect, it } from 'vitest';
import type { StoreSubject } from '../session-store.contract.js';

/** A turn's owner: taken over by exactly one of two connections, and kept alive by its heartbeat. */
export function turnOwnerCases(subject: StoreSubject): void {
  describe('taking over a turn', () => {
    it('succeeds for exactly one of two processes that saw the same dead owner', async () => {
      const first = await subject.open();
      const second = await subject.reopen(first);
      const session = await first.createSession({ provider: 'openai', model: 'gpt-test' });
      const turn = await first.startTurn({ sessionId: session.id, userText: 'hi', owner: 'host:1' });
      const move = (owner: string) => ({
        from: ['running', 'waiting_approval'] as const,
        owner,
        fromOwner: 'host:1',
      });
      expect(await first.setTurnStatus(turn.id, 'running', move('host:2'))).toBe(true);
      expect(await second.setTurnStatus(turn.id, 'running', move('host:3'))).toBe(false);
      expect((await second.getTurn(turn.id))?.owner).toBe('host:2');
    });

    it('matches a turn that has no owner with null, and moves as before when no owner is named', async () => {
      const store = await subject.open();
      const session = await store.createSession({ provider: 'openai', model: 'gpt-test' });
      const turn = await store.startTurn({ sessionId: session.id, userText: 'hi' });
      expect(await store.setTurnStatus(turn.id, 'running', { owner: 'host:2', fromOwner: 'host:9' })).toBe(
        false,
      );
      expect(await store.setTurnStatus(turn.id, 'running', { owner: 'host:2', fromOwner: null })).toBe(true);
      expect(await store.setTurnStatus(turn.id, 'waiting_approval', {})).toBe(true);
    });
  });

  describe("a turn owner's heartbeat", () => {
    it('is set when a turn gets an owner, and refreshed only on that owner’s unfinished turns', async () => {
      let clock = Date.parse('2030-01-01T00:00:00.000Z');
      const store = await subject.open({ now: () => clock });
      const session = await store.createSession({ provider: 'openai', model: 'gpt-test' });
      const mine = await store.startTurn({ sessionId: session.id, userText: 'a', owner: 'host:1' });
      const ended = await store.startTurn({ sessionId: session.id, userText: 'b', owner: 'host:1' });
      const theirs = await store.startTurn({ sessionId: session.id, userText: 'c', owner: 'host:2' });
      const none = await store.startTurn({ sessionId: session.id, userText: 'd' });
      expect(mine.ownerSeenAt).toBe('2030-01-01T00:00:00.000Z');
      expect(none.ownerSeenAt).toBeUndefined();
      await store.setTurnStatus(ended.id, 'done');
      clock += 60_000;
      expect(await store.touchTurnOwner('host:1')).toBe(1);
      expect((await store.getTurn(mine.id))?.ownerSeenAt).toBe('2030-01-01T00:01:00.000Z');
      expect((await store.getTurn(ended.id))?.ownerSeenAt).toBe('2030-01-01T00:00:00.000Z');
      expect((await store.getTurn(theirs.id))?.ownerSeenAt).toBe('2030-01-01T00:00:00.000Z');
      clock += 60_000;
      // Taking a turn over marks its new owner alive at once.
      await store.setTurnStatus(theirs.id, 'running', { owner: 'host:3', fromOwner: 'host:2' });
      expect((await store.getTurn(theirs.id))?.ownerSeenAt).toBe('2030-01-01T00:02:00.000Z');
    });
  });
}
