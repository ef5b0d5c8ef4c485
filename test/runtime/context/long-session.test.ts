import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../../src/core/session-store.js';
import { longSessionOf } from '../../../src/runtime/context/long-session.js';
import { SessionHistory } from '../../../src/runtime/turn/session-history.js';
import { openSessionStore } from '../../../src/store/index.js';

/** The store, counting its reads of token counts and compactions. */
function counted(store: SessionStore): { store: SessionStore; reads: () => number } {
  let reads = 0;
  const wrapped = Object.create(store) as SessionStore;
  wrapped.listUsage = (id) => {
    reads += 1;
    return store.listUsage(id);
  };
  wrapped.listCompactions = (id) => {
    reads += 1;
    return store.listCompactions(id);
  };
  return { store: wrapped, reads: () => reads };
}

let real: SessionStore;
beforeEach(() => {
  real = openSessionStore({ path: ':memory:' });
});
afterEach(async () => {
  await real.close();
});

describe('longSessionOf', () => {
  it("reads nothing in a session's first turn, where the store holds no counts or summary", async () => {
    const { store, reads } = counted(real);
    const session = await store.createSession();
    const turn = await store.startTurn({ sessionId: session.id, userText: 'hello' });
    const history = new SessionHistory(session.id);
    await history.messages(store);
    const long = await longSessionOf(history, store, turn.id);
    expect(reads()).toBe(0);
    expect(long.compaction).toBeUndefined();
    expect(long.calibration.observations).toBe(0);
    // Kept for the session's later turns, as one read from the store would be.
    expect(await longSessionOf(history, store, turn.id)).toBe(long);
  });

  it('reads the counts and the latest summary once the session had an earlier turn (here or elsewhere)', async () => {
    const { store, reads } = counted(real);
    const session = await store.createSession();
    const first = await store.startTurn({ sessionId: session.id, userText: 'one' });
    await store.recordUsage({
      sessionId: session.id,
      turnId: first.id,
      inputTokens: 100,
      outputTokens: 5,
      requestChars: 400,
    });
    const [opening] = await store.listMessages(session.id);
    await store.addCompaction({
      sessionId: session.id,
      turnId: first.id,
      throughSeq: opening?.seq ?? 0,
      summary: 'they said one',
      messagesCovered: 1,
      tokensBefore: 100,
      tokensAfter: 10,
      reason: 'threshold',
    });
    await store.setTurnStatus(first.id, 'done');
    const second = await store.startTurn({ sessionId: session.id, userText: 'two' });
    const history = new SessionHistory(session.id);
    await history.messages(store);
    const long = await longSessionOf(history, store, second.id);
    expect(reads()).toBe(2);
    expect(long.compaction?.summary).toBe('they said one');
    expect(long.calibration.observations).toBe(1);
  });

  it('reads the store for a turn that already has a reply (a turn resumed in another process)', async () => {
    const { store, reads } = counted(real);
    const session = await store.createSession();
    const turn = await store.startTurn({ sessionId: session.id, userText: 'hello' });
    await store.recordModelReply(turn.id, {
      content: 'thinking',
      calls: [],
      usage: { inputTokens: 50, outputTokens: 3, requestChars: 200 },
    });
    const history = new SessionHistory(session.id);
    await history.messages(store);
    const long = await longSessionOf(history, store, turn.id);
    expect(reads()).toBe(2);
    expect(long.calibration.observations).toBe(1);
  });
});
