import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore, type SqliteSessionStore } from '../../src/store/index.js';

const opened: SqliteSessionStore[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Two connections to one new file, as two processes open it, each on a clock of its own; a session made
 * through the first, and the time the file says it was last used.
 */
async function sessionOnTwoConnections(clocks: { a: number; b: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-touch-'));
  folders.push(dir);
  const path = join(dir, 'toolseam.db');
  const a = openSessionStore({ path, now: () => clocks.a });
  const b = openSessionStore({ path, now: () => clocks.b });
  opened.push(a, b);
  const session = await a.createSession();
  const updated = async () => Date.parse((await a.getSession(session.id))?.updatedAt ?? '');
  return { a, b, session, updated };
}

describe("a session's last use, marked by messages from two connections", () => {
  it('is what the marks give, whichever connection made the last one', async () => {
    const clocks = { a: 1_000, b: 1_000 };
    const { a, b, session, updated } = await sessionOnTwoConnections(clocks);
    clocks.a = 1_200;
    const turn = await a.startTurn({ sessionId: session.id, userText: 'hello' });
    expect(await updated()).toBe(1_200);

    // The other connection marks it later; this one's next message, within a second of that, moves nothing.
    clocks.b = 2_500;
    await b.appendMessage(turn.id, { role: 'assistant', content: 'from elsewhere' });
    expect(await updated()).toBe(2_500);
    clocks.a = 2_600;
    await a.appendMessage(turn.id, { role: 'assistant', content: 'soon after' });
    expect(await updated()).toBe(2_500);

    // Over a second after the other connection's mark, this one marks it again.
    clocks.a = 3_600;
    await a.appendMessage(turn.id, { role: 'assistant', content: 'a second on' });
    expect(await updated()).toBe(3_600);
    clocks.a = 3_700;
    await a.appendMessage(turn.id, { role: 'assistant', content: 'and again' });
    expect(await updated()).toBe(3_600);
  });

  it('is marked by a message after a transaction that marked it was undone', async () => {
    const clocks = { a: 1_000, b: 1_000 };
    const { a, session, updated } = await sessionOnTwoConnections(clocks);
    clocks.a = 1_200;
    const turn = await a.startTurn({ sessionId: session.id, userText: 'hello' });
    clocks.a = 2_500;
    expect(() =>
      a.transaction(() => {
        a.appendMessage(turn.id, { role: 'assistant', content: 'taken back' }).catch(() => undefined);
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    expect(await updated()).toBe(1_200);
    clocks.a = 2_700;
    await a.appendMessage(turn.id, { role: 'assistant', content: 'kept' });
    expect(await updated()).toBe(2_700);
  });

  it('moves again once a clock that stepped back passes the grain from the new time', async () => {
    const clocks = { a: 5_000, b: 5_000 };
    const { a, session, updated } = await sessionOnTwoConnections(clocks);
    const turn = await a.startTurn({ sessionId: session.id, userText: 'hello' });
    clocks.a = 3_000;
    await a.appendMessage(turn.id, { role: 'assistant', content: 'clock stepped back' });
    expect(await updated()).toBe(5_000);
    clocks.a = 6_100;
    await a.appendMessage(turn.id, { role: 'assistant', content: 'past the grain' });
    expect(await updated()).toBe(6_100);

    // Stepped back again, a change to the session writes an earlier time than this connection last
    // marked: a message over a second after that time marks it, though the mark known here is later.
    clocks.a = 4_000;
    await a.updateSession(session.id, { title: 'renamed' });
    expect(await updated()).toBe(4_000);
    clocks.a = 5_200;
    await a.appendMessage(turn.id, { role: 'assistant', content: 'after the change' });
    expect(await updated()).toBe(5_200);
  });
});
