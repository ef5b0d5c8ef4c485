import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
import { compileBatch, contractJson, enableSubagents } from '../../../src/runtime/subagents/index.js';
import { newCall } from '../../store/store-fixtures.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../../support/runtime-harness.js';
import { contract } from './subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A process id no process has. */
const DEAD = `${hostname()}:2147483646`;

/**
 * Stores a parent turn of a process that died while its `subagent_run` call (`c1`) ran a batch of
 * `tasks`; returns the turn and the batch.
 */
async function storeDeadBatch(harness: RuntimeHarness, tasks: string[]) {
  const store = harness.runtime.options.store;
  const parent = await store.createSession({ id: 'parent' });
  const turn = await store.startTurn({ sessionId: parent.id, userText: 'the morning round', owner: DEAD });
  const args = { tasks: tasks.map((t, i) => contract(t, `Leaf ${i}`)) } as JsonObject;
  await store.recordModelReply(turn.id, { content: '', calls: [newCall('c1', 'subagent_run', args)] });
  await store.approveToolCall(turn.id, 'c1');
  await store.claimToolCall(turn.id, 'c1');
  const compiled = compileBatch(args, { knownAgents: [], base: harness.dir });
  const leaves = compiled.leaves.map((l) => ({ title: l.title, contract: contractJson(l.contract) }));
  const batch = await store.createBatch({
    parentSessionId: parent.id,
    turnId: turn.id,
    callId: 'c1',
    leaves,
  });
  return { turn, batch };
}

describe('a new message after the process running a batch died', () => {
  it("gives the dead turn's subagent_run call the results of the leaves that had finished", async () => {
    h = await startHarness({ script: [{ text: 'a fresh start' }] });
    enableSubagents(h.runtime);
    const store = h.runtime.options.store;
    const { turn, batch } = await storeDeadBatch(h, ['First task to do', 'Second task to do']);
    const [first] = batch.leaves;
    await store.claimLeaf(first?.id as string, (await store.createSession({ id: 'child-a' })).id);
    await store.finishLeaf(first?.id as string, { status: 'done', output: 'the first answer' });
    // Leaf 1 had archived a mail when the process died.
    const [, second] = batch.leaves;
    await store.claimLeaf(second?.id as string, (await store.createSession({ id: 'child-b' })).id);
    const child = await store.startTurn({
      sessionId: 'child-b',
      userText: 'Task: Second task to do',
      owner: DEAD,
    });
    await store.recordModelReply(child.id, {
      content: '',
      calls: [newCall('c2', 'archive_mail', { id: 7 })],
    });
    await store.approveToolCall(child.id, 'c2');
    await store.claimToolCall(child.id, 'c2');
    await store.recordToolResult(child.id, 'c2', { status: 'done', content: 'archived 7', isError: false });

    const events = await collect(await (await h.runtime.session('parent')).send('something else'));
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'a fresh start' });
    const call = await store.getToolCall(turn.id, 'c1');
    expect(call).toMatchObject({ status: 'done', isError: false });
    expect(call?.result).toMatch(/^Batch \S+: 2 leaves \(1 done, 1 failed\)\./);
    expect(call?.result).toContain('## 1. Leaf 0: done');
    expect(call?.result).toContain('the first answer');
    expect(call?.result).toContain('## 2. Leaf 1: failed');
    expect(call?.result).toContain(
      "the batch's parent turn lost the process running it before this leaf finished",
    );
    expect(call?.result).toMatch(/already ran.*archive_mail \{"id":7\}/);
    // The model read it too, in the request of the new turn.
    const request = h.standIn.requests.at(-1);
    expect(JSON.stringify(request?.body)).toContain('the first answer');
  });
});
