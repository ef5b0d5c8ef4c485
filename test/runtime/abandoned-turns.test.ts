import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/core/session-store.js';
import { interruptAbandoned } from '../../src/runtime/resume/abandoned-turns.js';
import { newCall, openTestStore, tempDbPath } from '../store/store-fixtures.js';

const BOUNDS = { resultChars: 20_000, hidden: new Map<string, string>() };

/** A session whose turn was left waiting by a process that has been silent for an hour. */
function abandoned() {
  const path = tempDbPath();
  const past = openTestStore(path, { now: () => Date.now() - 60 * 60_000 });
  const session = past.createSession({ provider: 'openai', model: 'gpt-test' });
  const turn = past.startTurn({ sessionId: session.id, userText: 'archive it', owner: 'gone-host:1' });
  past.recordModelReply(turn.id, { content: '', calls: [newCall('c1', 'archive_mail', { id: 7 })] });
  const approval = past.requestApproval({ turnId: turn.id, callId: 'c1', risk: 'destructive', meaning: 'x' });
  return { store: openTestStore(path), session, turn, approval };
}

describe('a new message in a session with an abandoned turn', () => {
  it('closes the turn: its approval cancelled, its call answered as not run', () => {
    const { store, session, turn, approval } = abandoned();
    interruptAbandoned(store, session.id, 'here:9', BOUNDS);
    expect(store.getTurn(turn.id)?.status).toBe('interrupted');
    expect(store.getApproval(approval.id)?.status).toBe('cancelled');
    expect(store.getToolCall(turn.id, 'c1')?.status).toBe('failed');
  });

  it('leaves the turn alone when another process takes it over first, and says so', () => {
    const { store, session, turn, approval } = abandoned();
    // `toolseam approve` in another terminal takes the turn over between the look and the move.
    const racing: SessionStore = {
      ...store,
      setTurnStatus(id, state, move) {
        store.setTurnStatus(id, 'running', { owner: 'other:2', fromOwner: 'gone-host:1' });
        return store.setTurnStatus(id, state, move);
      },
    };
    expect(() => interruptAbandoned(racing, session.id, 'here:9', BOUNDS)).toThrow(/just taken over/);
    expect(store.getTurn(turn.id)).toMatchObject({ status: 'running', owner: 'other:2' });
    expect(store.getApproval(approval.id)?.status).toBe('pending');
    expect(store.getToolCall(turn.id, 'c1')?.status).toBe('pending');
  });
});
