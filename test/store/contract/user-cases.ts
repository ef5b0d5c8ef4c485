import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { StoreNotFoundError } from '../../../src/core/store-errors.js';
import { newCall } from '../record-fixtures.js';
import type { StoreSubject } from '../session-store.contract.js';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

/** The people a host serves: tokens kept as hashes, revoked not deleted, sessions and approvals by owner. */
export function userCases(subject: StoreSubject): void {
  describe('users', () => {
    it('adds users, finds them by id or name, lists them oldest first, and revokes each once', async () => {
      let now = Date.parse('2030-01-01T00:00:00.000Z');
      const store = await subject.open({ now: () => now });
      expect(await store.listUsers()).toEqual([]);
      const ann = await store.createUser({ name: 'ann', tokenHash: HASH_A });
      expect(ann).toEqual({
        id: expect.stringMatching(/^u-/),
        name: 'ann',
        tokenHash: HASH_A,
        createdAt: '2030-01-01T00:00:00.000Z',
        revokedAt: undefined,
      });
      now += 1000;
      const bob = await store.createUser({ id: 'u-bob', name: 'bob', tokenHash: HASH_B });
      expect(await store.getUser('ann')).toEqual(ann);
      expect(await store.getUser(ann.id)).toEqual(ann);
      expect(await store.getUser('nobody')).toBeUndefined();
      expect((await store.listUsers()).map((u) => u.name)).toEqual(['ann', 'bob']);
      now += 1000;
      expect(await store.revokeUser('bob')).toBe(true);
      expect(await store.revokeUser(bob.id)).toBe(false);
      expect(await store.revokeUser('nobody')).toBe(false);
      expect((await store.getUser('bob'))?.revokedAt).toBe('2030-01-01T00:00:02.000Z');
      // another connection reads the same
      const other = await subject.reopen(store);
      expect((await other.listUsers()).map((u) => [u.name, u.revokedAt !== undefined])).toEqual([
        ['ann', false],
        ['bob', true],
      ]);
    });

    it('refuses a malformed or taken name, a token hash that is not a SHA-256, and a reused hash', async () => {
      const store = await subject.open();
      await store.createUser({ name: 'ann', tokenHash: HASH_A });
      await expect(store.createUser({ name: 'ann', tokenHash: HASH_B })).rejects.toThrow(
        /already a user named "ann"/,
      );
      await expect(store.createUser({ name: 'Ann Smith', tokenHash: HASH_B })).rejects.toThrow(InputError);
      await expect(store.createUser({ name: '', tokenHash: HASH_B })).rejects.toThrow(InputError);
      await expect(store.createUser({ name: 'cy', tokenHash: 'secret-token' })).rejects.toThrow(
        /never stored/,
      );
      await expect(store.createUser({ name: 'cy', tokenHash: HASH_A })).rejects.toThrow(InputError);
      expect((await store.listUsers()).length).toBe(1);
    });

    it('gives a session its owner, lists and filters sessions and approvals by owner', async () => {
      const store = await subject.open();
      const ann = await store.createUser({ name: 'ann', tokenHash: HASH_A });
      const bob = await store.createUser({ name: 'bob', tokenHash: HASH_B });
      const mine = await store.createSession({ title: 'host' });
      const hers = await store.createSession({ title: 'ann', userId: ann.id });
      const his = await store.createSession({ title: 'bob', userId: bob.id });
      expect(mine.userId).toBeUndefined();
      expect(hers.userId).toBe(ann.id);
      expect((await store.getSession(his.id))?.userId).toBe(bob.id);
      await expect(store.createSession({ userId: 'u-nobody' })).rejects.toThrow(StoreNotFoundError);
      const titles = async (userId: string | null | undefined) =>
        (await store.listSessions({ topLevel: true, userId })).map((s) => s.title).sort();
      expect(await titles(ann.id)).toEqual(['ann']);
      expect(await titles(null)).toEqual(['host']);
      expect(await titles(undefined)).toEqual(['ann', 'bob', 'host']);
      expect((await store.listSessions({ userId: bob.id })).map((s) => s.id)).toEqual([his.id]);

      const ask = async (sessionId: string) => {
        const turn = await store.startTurn({ sessionId, userText: 'go' });
        await store.recordModelReply(turn.id, {
          content: '',
          calls: [newCall('c1', 'bash', { command: 'ls' })],
        });
        return store.requestApproval({ turnId: turn.id, callId: 'c1', risk: 'caution', meaning: 'ls' });
      };
      const [a0, a1, a2] = [await ask(mine.id), await ask(hers.id), await ask(his.id)];
      const ids = async (userId: string | null | undefined) =>
        (await store.listApprovals({ status: 'pending', userId })).map((a) => a.id);
      expect(await ids(ann.id)).toEqual([a1.id]);
      expect(await ids(bob.id)).toEqual([a2.id]);
      expect(await ids(null)).toEqual([a0.id]);
      expect(await ids(undefined)).toEqual([a0.id, a1.id, a2.id]);
    });

    it("gives a leaf's child session the owner of the session whose batch ran it", async () => {
      const store = await subject.open();
      const ann = await store.createUser({ name: 'ann', tokenHash: HASH_A });
      const parent = await store.createSession({ userId: ann.id });
      const turn = await store.startTurn({ sessionId: parent.id, userText: 'fan out' });
      const batch = await store.createBatch({
        parentSessionId: parent.id,
        turnId: turn.id,
        callId: 'c1',
        title: 'b',
        leaves: [{ title: 'one', contract: { task: 'one' } }],
      });
      const child = await store.createSession({ title: 'leaf: one' });
      expect(await store.claimLeaf(batch.leaves[0]!.id, child.id)).toBe(true);
      expect((await store.getSession(child.id))?.userId).toBe(ann.id);
      expect((await store.listSessions({ userId: ann.id })).map((s) => s.id).sort()).toEqual(
        [parent.id, child.id].sort(),
      );
    });
  });
}
