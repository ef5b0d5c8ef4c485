import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { turnToResume } from '../../../src/runtime/resume/leaf-turns.js';
import {
  batchSummary,
  compileBatch,
  contractJson,
  enableSubagents,
  resumeBatch,
  unfinishedBatches,
} from '../../../src/runtime/subagents/index.js';
import { newCall } from '../../store/store-fixtures.js';
import { demoProvider } from '../../support/demo-tools.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../../support/runtime-harness.js';
import { contract, fromLeaf } from './subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A process that is alive and is not this one: the parent of the test runner. */
const LIVE_OTHER = `${hostname()}:${process.ppid}`;
/** A process id no process has. */
const DEAD = `${hostname()}:2147483646`;

/** Stores a batch of `tasks` for session `parent`, its parent turn owned by `owner`. */
async function storeBatch(harness: RuntimeHarness, tasks: string[], owner: string) {
  const store = harness.runtime.options.store;
  const parent = await store.createSession({ id: 'parent' });
  const turn = await store.startTurn({ sessionId: parent.id, userText: 'the morning round', owner });
  const compiled = compileBatch(
    { tasks: tasks.map((t, i) => contract(t, `Leaf ${i}`)) },
    { knownAgents: [], base: harness.dir },
  );
  return store.createBatch({
    parentSessionId: parent.id,
    turnId: turn.id,
    title: 'morning',
    leaves: compiled.leaves.map((l) => ({
      title: l.title,
      contract: contractJson(l.contract),
    })),
  });
}

/** Claims `leaf` for the child session `child-a` and starts its turn, owned by a process that is gone. */
async function startLeafTurn(harness: RuntimeHarness, leafId: string | undefined) {
  const store = harness.runtime.options.store;
  const child = await store.createSession({ id: 'child-a' });
  await store.claimLeaf(leafId as string, child.id);
  return store.startTurn({ sessionId: child.id, userText: 'Task: First task to do', owner: DEAD });
}

/**
 * Stores three leaves as a crash leaves them: leaf 0's child turn ended with "first answer" but the
 * leaf was never recorded, leaf 1 was claimed but its child turn never began; leaf 2 is returned as is.
 */
async function storeCrashedBatch(harness: RuntimeHarness) {
  const store = harness.runtime.options.store;
  const batch = await storeBatch(
    harness,
    ['First task to do', 'Second task to do', 'Third task to do'],
    DEAD,
  );
  const [a, b, c] = batch.leaves;
  const turnA = await startLeafTurn(harness, a?.id);
  await store.appendMessage(turnA.id, { role: 'assistant', content: 'first answer' });
  await store.setTurnStatus(turnA.id, 'done');
  await store.claimLeaf(b?.id as string, (await store.createSession({ id: 'child-b' })).id);
  return { batch, third: c?.id as string };
}

describe('resuming a batch', () => {
  it('records a leaf whose child turn ended before the crash, re-runs one that never began, keeps finished ones', async () => {
    h = await startHarness({ script: [{ when: fromLeaf('Second task to do'), text: 'second answer' }] });
    const store = h.runtime.options.store;
    const { batch, third } = await storeCrashedBatch(h);
    // Leaf 2 had finished.
    await store.claimLeaf(third, (await store.createSession({ id: 'child-c' })).id);
    await store.finishLeaf(third, { status: 'failed', errors: ['it broke'] });

    const [found] = await unfinishedBatches(h.runtime);
    expect(found?.id).toBe(batch.id);
    expect(batchSummary(found as never)).toBe(`${batch.id} "morning": 2 unfinished, 1 failed`);

    const resumed = await resumeBatch(h.runtime, batch.id);
    expect(resumed.batch.leaves.map((l) => [l.status, l.output ?? l.errors[0]])).toEqual([
      ['done', 'first answer'],
      ['done', 'second answer'],
      ['failed', 'it broke'],
    ]);
    expect(resumed.batch.status).toBe('failed');
    expect(resumed.result.content).toContain('## 3. Leaf 2: failed\nErrors:\n- it broke');
    expect(resumed.deliveredToParent).toBe(false);
    expect(h.standIn.requests).toHaveLength(1);
  });

  it('leaves alone a batch whose parent turn still runs in another live process', async () => {
    h = await startHarness();
    const batch = await storeBatch(h, ['First task to do', 'Second task to do'], LIVE_OTHER);
    expect(await unfinishedBatches(h.runtime)).toEqual([]);
    await expect(resumeBatch(h.runtime, batch.id)).rejects.toMatchObject({ code: 'batch_busy' });
    await expect(resumeBatch(h.runtime, 'b-none')).rejects.toMatchObject({ code: 'unknown_batch' });
  });

  it('a resume refused for a leaf busy in another process changes none of the leaves before it', async () => {
    h = await startHarness();
    const store = h.runtime.options.store;
    const { batch, third } = await storeCrashedBatch(h);
    // Leaf 2's child turn is still run by another live process.
    await store.claimLeaf(third, (await store.createSession({ id: 'child-c' })).id);
    await store.startTurn({ sessionId: 'child-c', userText: 'Task: Third task to do', owner: LIVE_OTHER });
    const before = (await store.getBatch(batch.id))?.leaves;
    expect(before?.map((l) => l.status)).toEqual(['running', 'running', 'running']);

    await expect(resumeBatch(h.runtime, batch.id)).rejects.toMatchObject({
      code: 'batch_busy',
      message: expect.stringContaining('Leaf "Leaf 2"'),
    });
    expect((await store.getBatch(batch.id))?.leaves).toEqual(before);
    expect((await store.getBatch(batch.id))?.status).toBe('running');
  });

  it('refuses to resume the turn of a leaf outside its batch, naming the parent turn to resume', async () => {
    h = await startHarness();
    const store = h.runtime.options.store;
    const batch = await storeBatch(h, ['First task to do'], DEAD);
    const [leaf] = batch.leaves;
    const turn = await startLeafTurn(h, leaf?.id);
    await expect(h?.runtime.resumeTurn(turn.id)).rejects.toThrow(
      expect.objectContaining({
        code: 'leaf_turn',
        message: expect.stringContaining(`Resume its parent turn instead: toolseam resume ${batch.turnId}.`),
      }),
    );
    expect((await store.getTurn(turn.id))?.owner).toBe(DEAD);
    // What `toolseam approve` resumes for an approval the leaf asked for: the parent turn.
    expect(await turnToResume(store, turn.id)).toBe(batch.turnId);
    expect(await turnToResume(store, batch.turnId as string)).toBe(batch.turnId);
  });

  it('a new message in the parent session closes the batch its dead turn left: leaves, their turns, their approvals', async () => {
    h = await startHarness({ providers: [demoProvider()], script: [{ text: 'a fresh start' }] });
    const store = h.runtime.options.store;
    const batch = await storeBatch(h, ['First task to do', 'Second task to do'], DEAD);
    const [a] = batch.leaves;
    // Leaf 0 was waiting for an approval when the process died; leaf 1 had not started.
    const turn = await startLeafTurn(h, a?.id);
    await store.recordModelReply(turn.id, { content: '', calls: [newCall('c1', 'archive_mail', { id: 7 })] });
    await store.requestApproval({ turnId: turn.id, callId: 'c1', risk: 'destructive', meaning: 'archive 7' });

    const events = await collect(await (await h.runtime.session('parent')).send('something else'));
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'a fresh start' });
    expect(await store.listApprovals({ status: 'pending' })).toEqual([]);
    expect(await store.listTurns({ status: ['running', 'waiting_approval'] })).toEqual([]);
    expect(await store.getToolCall(turn.id, 'c1')).toMatchObject({ status: 'failed', notRun: 'stopped' });
    const closed = await store.getBatch(batch.id);
    expect(closed?.status).toBe('failed');
    expect(closed?.leaves.map((l) => l.status)).toEqual(['failed', 'failed']);
    expect(closed?.leaves[0]?.errors[0]).toMatch(/parent turn lost the process running it/);
    expect(await unfinishedBatches(h.runtime)).toEqual([]);
  });

  it('records a leaf whose child turn stopped at a limit before the crash as failed, as a live run does', async () => {
    h = await startHarness();
    const store = h.runtime.options.store;
    const batch = await storeBatch(h, ['First task to do'], DEAD);
    const [leaf] = batch.leaves;
    const turn = await startLeafTurn(h, leaf?.id);
    await store.appendMessage(turn.id, { role: 'assistant', content: 'still looking' });
    // A turn that ends at a limit is stored as done, with the limit as its error.
    const limit = 'model_call_limit: The turn stopped after 24 model calls without a final answer.';
    await store.setTurnStatus(turn.id, 'done', { error: limit });

    const resumed = await resumeBatch(h.runtime, batch.id);
    expect(resumed.batch.leaves.map((l) => [l.status, l.output, l.errors])).toEqual([
      ['failed', undefined, [limit]],
    ]);
    expect(resumed.result.isError).toBe(true);
  });

  it('resuming the parent turn of a batch that finished before the crash gives its call the batch result', async () => {
    h = await startHarness({ script: [{ echo: 'lastToolResult' }] });
    enableSubagents(h.runtime);
    const store = h.runtime.options.store;
    const parent = await store.createSession({ id: 'parent' });
    const turn = await store.startTurn({ sessionId: parent.id, userText: 'the morning round', owner: DEAD });
    const args = { task: 'First task to do' };
    await store.recordModelReply(turn.id, { content: '', calls: [newCall('c1', 'subagent_run', args)] });
    await store.approveToolCall(turn.id, 'c1');
    await store.claimToolCall(turn.id, 'c1');
    const compiled = compileBatch(args, { knownAgents: [], base: h.dir });
    const leaves = compiled.leaves.map((l) => ({ title: l.title, contract: contractJson(l.contract) }));
    const batch = await store.createBatch({
      parentSessionId: parent.id,
      turnId: turn.id,
      callId: 'c1',
      leaves,
    });
    const [leaf] = batch.leaves;
    await startLeafTurn(h, leaf?.id);
    await store.finishLeaf(leaf?.id as string, { status: 'done', output: 'first answer' });
    // The batch was recorded as finished; the process died before the parent's call was.
    await store.finishBatch(batch.id, 'done');

    const events = await collect(await h.runtime.resumeTurn(turn.id));
    expect(turnEnd(events).status).toBe('done');
    const result = await store.getToolCall(turn.id, 'c1');
    expect(result).toMatchObject({ status: 'done', isError: false });
    expect(result?.result).toMatch(/^Batch \S+: 1 leaf \(1 done\)\./);
    expect(result?.result).toContain('first answer');
  });
});
