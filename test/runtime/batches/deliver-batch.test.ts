import { describe, expect, it } from 'vitest';
import { deliverBatchResult } from '../../../src/runtime/batches/deliver-batch.js';
import type { RuntimeToolContext } from '../../../src/runtime/calls/runtime-tool.js';
import { toolResultRead } from '../../../src/runtime/context/tool-result-read.js';
import { newCall, openTestStore, tempDbPath } from '../../store/store-fixtures.js';

/** A batch result far over the bound: many leaves' lines, the last one the outcome. */
const LONG = `${Array.from({ length: 400 }, (_, i) => `leaf line ${i + 1}: fine`).join('\n')}\nlast: 3 leaves done`;

/** A session whose turn's `subagent_run` call c1 runs a one-leaf batch. */
async function runningBatch() {
  const store = openTestStore(tempDbPath());
  const parent = await store.createSession({ id: 'parent' });
  const turn = await store.startTurn({ sessionId: parent.id, userText: 'the round', owner: 'here:1' });
  await store.recordModelReply(turn.id, {
    content: '',
    calls: [newCall('c1', 'subagent_run', { task: 'x' })],
  });
  await store.approveToolCall(turn.id, 'c1');
  await store.claimToolCall(turn.id, 'c1');
  const leaves = [{ title: 'one', contract: { task: 'x' } }];
  const batch = await store.createBatch({
    parentSessionId: parent.id,
    turnId: turn.id,
    callId: 'c1',
    leaves,
  });
  return { store, parent, turn, batch };
}

describe('a finished batch delivered to its call after a resume', () => {
  it('is kept whole when over the bound: the call gets its start and end and an id tool_result_read reads', async () => {
    const { store, parent, turn, batch } = await runningBatch();
    const bounds = { resultChars: 2_000, hidden: new Map([['TOKEN', 'leaf line 7']]) };

    expect(await deliverBatchResult(store, batch, { content: LONG, isError: false }, bounds)).toBe(true);
    const stored = (await store.getToolCall(turn.id, 'c1'))?.result ?? '';
    expect(stored.length).toBeLessThanOrEqual(2_000);
    expect(stored.startsWith('leaf line 1: fine')).toBe(true);
    expect(stored.endsWith('leaf line 400: fine\nlast: 3 leaves done')).toBe(true);
    const id = /kept as "(result-[0-9a-f]{8})": call tool_result_read/.exec(stored)?.[1] ?? '';
    expect(id).not.toBe('');

    const ctx = { sessionId: parent.id, store } as unknown as RuntimeToolContext;
    const read = await toolResultRead().run({ id, pattern: 'line 399' }, ctx);
    expect(read.content).toMatch(/^1 matching line\(s\):\n399 \(offset \d+\): leaf line 399: fine$/);
    // the kept text is hidden as the shown part is
    const whole = await store.getFullResult(id);
    expect(whole).toMatchObject({
      sessionId: parent.id,
      turnId: turn.id,
      callId: 'c1',
      tool: 'subagent_run',
    });
    expect(whole?.content).not.toContain('leaf line 7:');
    await store.close();
  });

  it('a short result is stored as it is, with nothing kept aside', async () => {
    const { store, turn, batch } = await runningBatch();
    const bounds = { resultChars: 2_000, hidden: new Map<string, string>() };
    expect(await deliverBatchResult(store, batch, { content: 'all done', isError: false }, bounds)).toBe(
      true,
    );
    expect((await store.getToolCall(turn.id, 'c1'))?.result).toBe('all done');
    await store.close();
  });
});
