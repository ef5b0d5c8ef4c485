import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/core/session-store.js';
import { interruptAbandoned } from '../../src/runtime/resume/abandoned-turns.js';
import { newCall, openTestStore, tempDbPath } from '../store/store-fixtures.js';

const BOUNDS = { resultChars: 20_000, hidden: new Map<string, string>() };

/** A session whose turn was left waiting by a process that has been silent for an hour. */
async function abandoned() {
  const path = tempDbPath();
  const past = openTestStore(path, { now: () => Date.now() - 60 * 60_000 });
  const session = await past.createSession({ provider: 'openai', model: 'gpt-test' });
  const turn = await past.startTurn({ sessionId: session.id, userText: 'archive it', owner: 'gone-host:1' });
  await past.recordModelReply(turn.id, { content: '', calls: [newCall('c1', 'archive_mail', { id: 7 })] });
  const approval = await past.requestApproval({
    turnId: turn.id,
    callId: 'c1',
    risk: 'destructive',
    meaning: 'x',
  });
  return { store: openTestStore(path), session, turn, approval };
}

describe('a new message in a session with an abandoned turn', () => {
  it('closes the turn: its approval cancelled, its call answered as not run', async () => {
    const { store, session, turn, approval } = await abandoned();
    await interruptAbandoned(store, session.id, 'here:9', BOUNDS);
    expect((await store.getTurn(turn.id))?.status).toBe('interrupted');
    expect((await store.getApproval(approval.id))?.status).toBe('cancelled');
    expect((await store.getToolCall(turn.id, 'c1'))?.status).toBe('failed');
  });

  it('leaves the turn alone when another process takes it over first, and says so', async () => {
    const { store, session, turn, approval } = await abandoned();
    // `toolseam approve` in another terminal takes the turn over between the look and the move.
    const racing: SessionStore = {
      ...store,
      async setTurnStatus(id, state, move) {
        await store.setTurnStatus(id, 'running', { owner: 'other:2', fromOwner: 'gone-host:1' });
        return store.setTurnStatus(id, state, move);
      },
    };
    await expect(interruptAbandoned(racing, session.id, 'here:9', BOUNDS)).rejects.toThrow(/just taken over/);
    expect(await store.getTurn(turn.id)).toMatchObject({ status: 'running', owner: 'other:2' });
    expect((await store.getApproval(approval.id))?.status).toBe('pending');
    expect((await store.getToolCall(turn.id, 'c1'))?.status).toBe('pending');
  });
});
