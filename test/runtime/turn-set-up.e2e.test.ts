import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

// A turn is set up across several awaits on the store; these hold what held when the store answered at once.
describe('a turn while it is being set up', () => {
  it('makes a second send to its session, made at the same moment, refused; the first turn runs', async () => {
    h = await startHarness({ script: [{ text: 'one' }] });
    const session = await h.runtime.session('s');
    const first = session.send('hello');
    const second = session.send('again');
    await expect(second).rejects.toThrow(expect.objectContaining({ code: 'turn_running' }));
    expect(turnEnd(await collect(await first))).toMatchObject({ status: 'done', message: 'one' });
    expect((await h.runtime.options.store.listTurns({ sessionId: 's' })).map((t) => t.userText)).toEqual([
      'hello',
    ]);
  });

  it('two handles asked for one new session at the same moment are that one session', async () => {
    h = await startHarness({ script: [] });
    const [a, b] = await Promise.all([h.runtime.session('fresh'), h.runtime.session('fresh')]);
    expect([a.id, b.id]).toEqual(['fresh', 'fresh']);
    expect((await h.runtime.options.store.listSessions()).map((s) => s.id)).toEqual(['fresh']);
  });

  it('is waited for by close, and records how it ended before the store closes', async () => {
    h = await startHarness({ script: [{ text: 'never shown' }] });
    const session = await h.runtime.session('s');
    const starting = session.send('hello');
    await h.runtime.close();
    expect(turnEnd(await collect(await starting)).status).toBe('stopped');
    const store = openSessionStore({ path: h.dbPath });
    try {
      expect((await store.listTurns({ sessionId: 's' })).map((t) => t.status)).toEqual(['stopped']);
    } finally {
      await store.close();
    }
  });
});
