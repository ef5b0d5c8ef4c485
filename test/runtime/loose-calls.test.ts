import { describe, expect, it } from 'vitest';
import { answerLooseCalls } from '../../src/runtime/resume/abandoned-turns.js';
import { newCall, openTestStore, turnWithCalls } from '../store/store-fixtures.js';

describe('answering the calls a turn left behind', () => {
  it('says a call never started was not run, and a started one may have done its work', async () => {
    const store = openTestStore();
    const { turn } = await turnWithCalls(store, [
      newCall('waiting', 'mcp/notes/find', { q: 'tax' }),
      newCall('started', 'send_email', { to: 'a@b.c' }, { status: 'approved' }),
      newCall('finished', 'read_file', { path: 'a.txt' }, { status: 'approved' }),
    ]);
    expect(await store.claimToolCall(turn.id, 'started')).toBe(true);
    expect(await store.claimToolCall(turn.id, 'finished')).toBe(true);
    await store.recordToolResult(turn.id, 'finished', { status: 'done', content: 'text', isError: false });

    await answerLooseCalls(store, { turnId: turn.id }, 'the turn failed inside toolseam');

    const byId = new Map((await store.listToolCalls({ turnId: turn.id })).map((c) => [c.id, c]));
    expect(byId.get('waiting')).toMatchObject({ status: 'failed', notRun: 'stopped' });
    expect(byId.get('waiting')?.result).toBe(
      'Error: mcp/notes/find was not run: the turn failed inside toolseam before it started.',
    );
    const started = byId.get('started');
    expect(started).toMatchObject({ status: 'failed', isError: true });
    expect(started?.notRun).toBeUndefined();
    expect(started?.result).toContain('send_email was started, but the turn failed inside toolseam');
    expect(started?.result).toContain('whether it finished is unknown');
    expect(byId.get('finished')).toMatchObject({ status: 'done', result: 'text' });
  });
});
