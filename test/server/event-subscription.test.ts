import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionStore, StoredTurnEvent } from '../../src/core/session-store.js';
import { EventSubscription } from '../../src/server/event-subscription.js';
import { openSessionStore } from '../../src/store/index.js';

let dir: string;
let store: SessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-subscription-'));
  store = openSessionStore({ path: join(dir, 't.db') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A session with one turn, and a way to keep `n` more of its events (as the hub or another process would). */
async function turnOf() {
  const session = await store.createSession();
  const turn = await store.startTurn({ sessionId: session.id, userText: 'hi' });
  let k = 0;
  const keep = (n: number, type = 'text-delta'): Promise<StoredTurnEvent[]> =>
    store.appendTurnEvents(
      Array.from({ length: n }, () => ({
        sessionId: session.id,
        turnId: turn.id,
        type,
        data: { type, n: k++ },
      })),
    );
  return { sessionId: session.id, turnId: turn.id, keep };
}

function subscription(sessionId: string, after = 0, turnId?: string) {
  let local = true;
  const s = new EventSubscription(
    store,
    sessionId,
    { after, ...(turnId ? { turnId } : {}) },
    {
      localTurn: () => local,
      pollMs: 10,
      leave: () => undefined,
    },
  );
  return { s, setLocal: (v: boolean) => (local = v) };
}

describe('a stream subscription', () => {
  it('reads the store for a live batch that does not follow what it has (a gap), so nothing is skipped', async () => {
    const t = await turnOf();
    const early = await t.keep(3);
    const { s } = subscription(t.sessionId);
    expect((await s.next()).map((e) => e.id)).toEqual(early.map((e) => e.id));
    const missed = await t.keep(2); // kept by someone who did not offer them here
    const live = await t.keep(2);
    s.offer(live, missed[1]?.id); // follows the missed ones, not what the stream has
    expect((await s.next()).map((e) => e.id)).toEqual([...missed, ...live].map((e) => e.id));
  });

  it('takes a live batch that follows what it has as it is, and drops what it already has', async () => {
    const t = await turnOf();
    const first = await t.keep(2);
    const { s } = subscription(t.sessionId);
    expect(await s.next()).toHaveLength(2);
    const live = await t.keep(2);
    s.offer(live, first[1]?.id);
    s.offer(live, first[1]?.id); // the same batch twice: once only
    expect((await s.next()).map((e) => e.id)).toEqual(live.map((e) => e.id));
    const more = await t.keep(1);
    s.offer(more, live[1]?.id);
    expect((await s.next()).map((e) => e.id)).toEqual(more.map((e) => e.id));
  });

  it('a batch offered while the store is being read is read from the store, after what the read returns', async () => {
    const t = await turnOf();
    await t.keep(2);
    const { s } = subscription(t.sessionId);
    const reading = s.next(); // starts reading the store
    const live = await t.keep(2);
    s.offer(live, undefined);
    const got = [...(await reading)];
    while (got.length < 4) got.push(...(await s.next()));
    expect(got.map((e) => e.id)).toEqual([...got.map((e) => e.id)].sort((a, b) => a - b));
    expect(new Set(got.map((e) => e.id)).size).toBe(4);
  });

  it('leaves events in the store, not in memory, for a client that does not read, and gives them all in order later', async () => {
    const t = await turnOf();
    const first = await t.keep(1);
    const { s } = subscription(t.sessionId);
    expect(await s.next()).toHaveLength(1);
    let before = first[0]?.id;
    const kept: StoredTurnEvent[] = [];
    for (let i = 0; i < 5; i++) {
      const batch = await t.keep(1_000);
      kept.push(...batch);
      s.offer(batch, before); // the client reads nothing meanwhile
      before = batch.at(-1)?.id;
    }
    const got: StoredTurnEvent[] = [];
    const queued = await s.next();
    expect(queued.length).toBeLessThan(kept.length);
    got.push(...queued);
    while (got.length < kept.length) got.push(...(await s.next()));
    expect(got.map((e) => e.id)).toEqual(kept.map((e) => e.id));
  });

  it("polls the store when no turn of the session runs here, and a turn's stream ends after its turn-end", async () => {
    const t = await turnOf();
    const { s, setLocal } = subscription(t.sessionId, 0, t.turnId);
    setLocal(false);
    const waiting = s.next(); // nothing kept yet: it polls
    const kept = [...(await t.keep(2)), ...(await t.keep(1, 'turn-end'))];
    const got = [...(await waiting)];
    while (got.length < 3) got.push(...(await s.next()));
    expect(got.map((e) => e.id)).toEqual(kept.map((e) => e.id));
    expect(await s.next()).toEqual([]);
  });
});
