import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/core/session-store.js';
import {
  type ClosingCause,
  closeUnheldTurn,
  interruptAbandoned,
} from '../../src/runtime/resume/abandoned-turns.js';
import { QUEUED_OWNER } from '../../src/runtime/resume/turn-owner.js';
import { contractJson } from '../../src/runtime/subagents/index.js';
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

/**
 * A parent turn owned by `owner` whose `subagent_run` call (`c1`) runs a batch of two leaves: the first
 * in a child turn parked on a question about `careful_step` (`c2`), whose `step` (`c3`) had started,
 * the second not started.
 */
async function parkedBatch(store: SessionStore, owner: string) {
  const parent = await store.createSession({ id: 'parent' });
  const turn = await store.startTurn({ sessionId: parent.id, userText: 'the round', owner });
  await store.recordModelReply(turn.id, { content: '', calls: [newCall('c1', 'subagent_run', {})] });
  await store.approveToolCall(turn.id, 'c1');
  await store.claimToolCall(turn.id, 'c1');
  const leaf = (title: string) => ({
    title,
    contract: contractJson({ goal: title, capability: 'research', writes: [], off_limits: [] } as never),
  });
  const batch = await store.createBatch({
    parentSessionId: parent.id,
    turnId: turn.id,
    callId: 'c1',
    leaves: [leaf('First'), leaf('Second')],
  });
  const first = batch.leaves[0]?.id as string;
  await store.claimLeaf(first, (await store.createSession({ id: 'child' })).id);
  const child = await store.startTurn({ sessionId: 'child', userText: 'Task: First', owner: QUEUED_OWNER });
  await store.recordModelReply(child.id, {
    content: '',
    calls: [newCall('c3', 'step', {}), newCall('c2', 'careful_step', {})],
  });
  await store.approveToolCall(child.id, 'c3');
  await store.claimToolCall(child.id, 'c3');
  const approval = await store.requestApproval({
    turnId: child.id,
    callId: 'c2',
    risk: 'caution',
    meaning: 'x',
  });
  return { turn, batchId: batch.id, child, approval };
}

describe('a parked turn closed with its batch: its leaves are told what happened to it', () => {
  const cases: [ClosingCause, string, string][] = [
    ['stopped', 'stopped', 'was stopped by the person'],
    ['new_message', 'interrupted', 'was interrupted by a new message'],
    ['process_gone', 'interrupted', 'lost the process running it'],
  ];
  for (const [cause, state, happened] of cases) {
    it(`${cause}: the leaves, their turns and their calls say the parent turn ${happened}`, async () => {
      const store = openTestStore();
      const { turn, batchId, child, approval } = await parkedBatch(store, QUEUED_OWNER);
      expect(await closeUnheldTurn(store, turn, 'here:9', BOUNDS, cause)).toBe(true);

      expect((await store.getTurn(turn.id))?.status).toBe(state);
      expect(await store.getTurn(child.id)).toMatchObject({
        status: state,
        error: `its parent turn ${happened}`,
      });
      expect((await store.getApproval(approval.id))?.status).toBe('cancelled');
      expect((await store.getToolCall(child.id, 'c2'))?.result).toBe(
        `Error: careful_step was not run: its parent turn ${happened} before it started.`,
      );
      expect((await store.getToolCall(child.id, 'c3'))?.result).toContain(
        `step was started, but its parent turn ${happened} before its result came back`,
      );
      const batch = await store.getBatch(batchId);
      expect(batch?.status).toBe('failed');
      expect(batch?.leaves.map((l) => l.errors[0])).toEqual([
        `the batch's parent turn ${happened} before this leaf finished`,
        `the batch's parent turn ${happened} before this leaf started`,
      ]);
      // The parent's call carries the leaves' endings, in the same words.
      expect((await store.getToolCall(turn.id, 'c1'))?.result).toContain(`parent turn ${happened}`);
    });
  }

  it('a new message picks the cause by the turn: one parked is interrupted by it, one of a dead process lost it', async () => {
    const parked = openTestStore();
    await parkedBatch(parked, QUEUED_OWNER);
    await interruptAbandoned(parked, 'parent', 'here:9', BOUNDS);
    const [a] = await parked.listBatches({ parentSessionId: 'parent' });
    expect(a?.leaves[1]?.errors[0]).toBe(
      "the batch's parent turn was interrupted by a new message before this leaf started",
    );

    const dead = openTestStore();
    // A pid of this host no process has.
    const { turn } = await parkedBatch(dead, `${hostname()}:2147483646`);
    await interruptAbandoned(dead, 'parent', 'here:9', BOUNDS);
    expect((await dead.getTurn(turn.id))?.error).toBe('the process running it ended before it finished');
    const [b] = await dead.listBatches({ parentSessionId: 'parent' });
    expect(b?.leaves[1]?.errors[0]).toBe(
      "the batch's parent turn lost the process running it before this leaf started",
    );
  });
});

describe('a parked turn closed while another process settles its leaf', () => {
  it("a worker that records the leaf from its ended child turn finds it already ended in the stop's words", async () => {
    const store = openTestStore();
    const { turn, batchId, child } = await parkedBatch(store, QUEUED_OWNER);
    // A worker's leaf job, woken as the child turn ends, records a leaf still running from that turn.
    const racing: SessionStore = {
      ...store,
      async setTurnStatus(id, state, move) {
        const moved = await store.setTurnStatus(id, state, move);
        if (id !== child.id) return moved;
        const leaf = (await store.getBatch(batchId))?.leaves[0];
        if (leaf?.status === 'running') {
          await store.finishLeaf(leaf.id, { status: 'failed', errors: [move?.error ?? 'ended'] });
        }
        return moved;
      },
    };
    expect(await closeUnheldTurn(racing, turn, 'here:9', BOUNDS, 'stopped')).toBe(true);
    const batch = await store.getBatch(batchId);
    expect(batch?.status).toBe('failed');
    expect(batch?.leaves[0]?.errors[0]).toBe(
      "the batch's parent turn was stopped by the person before this leaf finished",
    );
    expect((await store.getTurn(child.id))?.status).toBe('stopped');
  });

  it('a leaf another process finished between the look and the write keeps its ending; the rest close', async () => {
    const store = openTestStore();
    const { turn, batchId, child, approval } = await parkedBatch(store, QUEUED_OWNER);
    const first = (await store.getBatch(batchId))?.leaves[0]?.id as string;
    let raced = false;
    const racing: SessionStore = {
      ...store,
      async finishLeaf(id, result) {
        if (id === first && !raced) {
          raced = true;
          await store.finishLeaf(id, { status: 'done', output: 'finished elsewhere' });
        }
        return store.finishLeaf(id, result);
      },
    };
    expect(await closeUnheldTurn(racing, turn, 'here:9', BOUNDS, 'stopped')).toBe(true);
    expect(raced).toBe(true);
    const batch = await store.getBatch(batchId);
    expect(batch?.leaves.map((l) => [l.status, l.output ?? l.errors[0]])).toEqual([
      ['done', 'finished elsewhere'],
      ['failed', "the batch's parent turn was stopped by the person before this leaf started"],
    ]);
    expect(batch?.status).toBe('failed');
    expect((await store.getTurn(child.id))?.status).toBe('stopped');
    expect((await store.getApproval(approval.id))?.status).toBe('cancelled');
  });
});
