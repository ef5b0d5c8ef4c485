import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';

const cwd = process.cwd();
afterEach(() => process.chdir(cwd));

describe('a store opened at ":memory:"', () => {
  it('lives in memory: no file is made, and two such stores share nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-memory-'));
    process.chdir(dir);
    const one = openSessionStore({ path: ':memory:' });
    const two = openSessionStore({ path: ':memory:' });
    try {
      await one.createSession({ id: 'chat-1', title: 'Trip' });
      const turn = await one.startTurn({ sessionId: 'chat-1', userText: 'plan it' });
      expect((await one.getTurn(turn.id))?.status).toBe('running');
      expect((await one.getSession('chat-1'))?.title).toBe('Trip');
      expect(await two.getSession('chat-1')).toBeUndefined();
      expect(one.path).toBe(':memory:');
    } finally {
      await one.close();
      await two.close();
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
