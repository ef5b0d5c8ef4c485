import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { StoreNotFoundError } from '../../../src/core/store-errors.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Turn events appended in batches, listed by session or turn after an id, across connections. */
export function turnEventCases(subject: StoreSubject): void {
  describe('turn events', () => {
    it('gives increasing ids in the order appended and lists a session or a turn after an id', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const t1 = await store.startTurn({ sessionId: s.id, userText: 'one' });
      const first = await store.appendTurnEvents([
        { sessionId: s.id, turnId: t1.id, type: 'turn-start', data: { type: 'turn-start' } },
        { sessionId: s.id, turnId: t1.id, type: 'text-delta', data: { type: 'text-delta', text: 'a' } },
      ]);
      expect(first.map((e) => e.type)).toEqual(['turn-start', 'text-delta']);
      expect((first[1]?.id ?? 0) > (first[0]?.id ?? 0)).toBe(true);
      const other = await store.createSession();
      const t2 = await store.startTurn({ sessionId: other.id, userText: 'two' });
      await store.appendTurnEvents([{ sessionId: other.id, turnId: t2.id, type: 'x', data: {} }]);
      const second = await store.appendTurnEvents([
        { sessionId: s.id, turnId: t1.id, type: 'turn-end', data: { type: 'turn-end', status: 'done' } },
      ]);
      const all = await store.listTurnEvents({ sessionId: s.id });
      expect(all.map((e) => e.id)).toEqual([...first, ...second].map((e) => e.id));
      expect(all[1]?.data).toEqual({ type: 'text-delta', text: 'a' });
      expect(
        (await store.listTurnEvents({ sessionId: s.id, after: first[0]?.id })).map((e) => e.type),
      ).toEqual(['text-delta', 'turn-end']);
      expect(await store.listTurnEvents({ sessionId: s.id, limit: 1 })).toHaveLength(1);
      expect(await store.lastTurnEventId(s.id)).toBe(second[0]?.id);
      expect(await store.lastTurnEventId(s.id, second[0]?.id)).toBe(first[1]?.id);
      expect(await store.lastTurnEventId(s.id, first[0]?.id)).toBe(0);
      expect(await store.lastTurnEventId('s-none')).toBe(0);
      expect((await store.listTurnEvents({ turnId: t2.id })).map((e) => e.sessionId)).toEqual([other.id]);
      expect(await store.listTurnEvents({ sessionId: s.id, turnId: t2.id })).toEqual([]);
      await store.setTurnStatus(t2.id, 'done');
      await store.deleteSession(other.id);
      expect(await store.listTurnEvents({ turnId: t2.id })).toEqual([]);
      const again = await subject.reopen(store);
      expect((await again.listTurnEvents({ sessionId: s.id })).map((e) => e.id)).toEqual(
        all.map((e) => e.id),
      );
    });

    it('refuses an unknown turn, a turn of another session and malformed events, appending none of them', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const other = await store.createSession();
      const t = await store.startTurn({ sessionId: s.id, userText: 'one' });
      const good = { sessionId: s.id, turnId: t.id, type: 'notice', data: {} };
      await expect(store.appendTurnEvents([good, { ...good, turnId: 'tu-nothing' }])).rejects.toThrow(
        StoreNotFoundError,
      );
      await expect(store.appendTurnEvents([{ ...good, sessionId: other.id }])).rejects.toThrow(InputError);
      await expect(store.appendTurnEvents([{ ...good, data: [] as never }])).rejects.toThrow(/data/);
      await expect(store.listTurnEvents({})).rejects.toThrow(InputError);
      expect(await store.listTurnEvents({ sessionId: s.id })).toEqual([]);
    });
  });
}
