import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import type { StoreSubject } from '../session-store.contract.js';

/** The notify outbox: written before sending, one claim at a time across connections, settled by its holder. */
export function outboxCases(subject: StoreSubject): void {
  describe('notify outbox', () => {
    it('claims a due message for one connection at a time, counting attempts, and lets a dead claim be taken over', async () => {
      // A second connection keeps the real clock: this one starts a second behind it, so both see the message due.
      const start = Date.now() - 1000;
      let now = start;
      const store = await subject.open({ now: () => now });
      const other = await subject.reopen(store);
      const row = await store.enqueueOutbox({
        channel: 'phone',
        service: 'ntfy',
        payload: { text: 'hi' },
        idempotencyKey: 'k',
        origin: 's-1',
      });
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: new Date(start).toISOString(),
        idempotencyKey: 'k',
        origin: 's-1',
        payload: { text: 'hi' },
      });
      const hour = 3_600_000;
      expect(await store.claimOutbox({ owner: 'a', leaseMs: hour })).toMatchObject([
        { id: row.id, attempts: 1 },
      ]);
      expect(await other.claimOutbox({ owner: 'b', leaseMs: hour })).toEqual([]);
      expect(await store.claimOutbox({ owner: 'a', leaseMs: hour, channels: ['other'] })).toEqual([]);
      now += hour;
      expect(await store.claimOutbox({ owner: 'b', leaseMs: 1000 })).toMatchObject([
        { attempts: 2, claimedBy: 'b' },
      ]);
      expect(await other.settleOutbox(row.id, 'a', { status: 'sent' })).toBe(false);
      expect(
        await other.settleOutbox(row.id, 'b', { status: 'pending', retryAt: now + 5000, error: '429' }),
      ).toBe(true);
      expect(await store.claimOutbox({ owner: 'a', leaseMs: 1000 })).toEqual([]);
      now += 5000;
      const [again] = await store.claimOutbox({ owner: 'a', leaseMs: 1000, channels: ['phone'] });
      expect(again).toMatchObject({ attempts: 3, lastError: '429' });
      expect(await store.settleOutbox(row.id, 'a', { status: 'sent', receipt: 'm-9' })).toBe(true);
      expect(await other.getOutbox(row.id)).toMatchObject({
        status: 'sent',
        receipt: 'm-9',
        sentAt: new Date(now).toISOString(),
        claimedBy: undefined,
      });
      expect(await store.settleOutbox(row.id, 'a', { status: 'failed', error: 'x' })).toBe(false);
      expect((await store.listOutbox({ status: 'sent' })).map((r) => r.id)).toEqual([row.id]);
      expect(await store.listOutbox({ status: 'pending' })).toEqual([]);
    });

    it('writes a message already claimed by its writer, which no other connection takes meanwhile', async () => {
      const store = await subject.open();
      const other = await subject.reopen(store);
      const row = await store.enqueueOutbox(
        { channel: 'me', service: 'telegram', payload: { text: 'x' } },
        { owner: 'writer', leaseMs: 3_600_000 },
      );
      expect(row).toMatchObject({ status: 'pending', attempts: 1, claimedBy: 'writer' });
      expect(await other.claimOutbox({ owner: 'b', leaseMs: 1000 })).toEqual([]);
      expect(await other.settleOutbox(row.id, 'writer', { status: 'sent' })).toBe(true);
    });

    it('refuses a message without a channel and a claim without a lease', async () => {
      const store = await subject.open();
      await expect(store.enqueueOutbox({ channel: '', service: 'ntfy', payload: {} })).rejects.toBeInstanceOf(
        InputError,
      );
      await expect(store.claimOutbox({ owner: 'a', leaseMs: 0 })).rejects.toBeInstanceOf(InputError);
    });
  });
}
