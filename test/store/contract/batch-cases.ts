import { describe, expect, it } from 'vitest';
import { StoreConflictError, StoreNotFoundError } from '../../../src/core/store-errors.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Subagent batches: leaves claimed exactly once, finished once, requeued and resumed after a crash. */
export function batchCases(subject: StoreSubject): void {
  const LEAVES = [
    { title: 'Inbox', contract: { task: 'sweep the inbox', output_format: 'bullet list' }, agent: 'mail' },
    { title: 'Calendar', contract: { task: 'list this week', writes: [] } },
    { title: 'Draft', contract: { task: 'draft a summary', writes: ['notes/summary.md'] } },
  ];

  async function batch() {
    const store = await subject.open();
    const parent = await store.createSession();
    const turn = await store.startTurn({ sessionId: parent.id, userText: 'check everything' });
    const made = await store.createBatch({
      parentSessionId: parent.id,
      turnId: turn.id,
      callId: 'c1',
      title: 'Morning',
      leaves: LEAVES,
    });
    return { store, parent, made };
  }

  describe('subagent batches', () => {
    it('creates a running batch with its leaves queued, in order', async () => {
      const { store, parent, made } = await batch();
      expect(made).toMatchObject({
        parentSessionId: parent.id,
        callId: 'c1',
        title: 'Morning',
        status: 'running',
      });
      expect(made.leaves.map((l) => [l.index, l.title, l.status])).toEqual([
        [0, 'Inbox', 'queued'],
        [1, 'Calendar', 'queued'],
        [2, 'Draft', 'queued'],
      ]);
      expect(made.leaves[0]).toMatchObject({ contract: LEAVES[0]!.contract, agent: 'mail', errors: [] });
      expect(await store.getBatch(made.id)).toEqual(made);
      expect((await store.listBatches({ parentSessionId: parent.id })).map((b) => b.id)).toEqual([made.id]);
    });

    it('claims a leaf exactly once, finishes it, and refuses to finish it twice', async () => {
      const { store, made } = await batch();
      const child = await store.createSession({ title: 'leaf: Inbox' });
      const leaf = made.leaves[0]!;
      expect(await store.claimLeaf(leaf.id, child.id)).toBe(true);
      expect(await store.claimLeaf(leaf.id, child.id)).toBe(false);
      const done = await store.finishLeaf(leaf.id, { status: 'done', output: '- 3 new mails' });
      expect(done).toMatchObject({
        status: 'done',
        output: '- 3 new mails',
        childSessionId: child.id,
        errors: [],
      });
      expect(done.startedAt).toBeDefined();
      expect(done.endedAt).toBeDefined();
      await expect(store.finishLeaf(leaf.id, { status: 'failed' })).rejects.toThrow(StoreConflictError);
      await expect(store.claimLeaf('leaf-none', child.id)).rejects.toThrow(StoreNotFoundError);
      await expect(store.claimLeaf(made.leaves[1]!.id, 'no-such-session')).rejects.toThrow(
        StoreNotFoundError,
      );
    });

    it('finds the one batch whose leaf runs in a given child session', async () => {
      const { store, parent, made } = await batch();
      const other = await store.createBatch({
        parentSessionId: parent.id,
        title: 'Later',
        leaves: [LEAVES[1]!],
      });
      const child = await store.createSession({ title: 'leaf: Calendar' });
      await store.claimLeaf(other.leaves[0]!.id, child.id);
      expect((await store.listBatches({ childSessionId: child.id })).map((b) => b.id)).toEqual([other.id]);
      expect(await store.listBatches({ childSessionId: parent.id })).toEqual([]);
      expect((await store.listBatches()).map((b) => b.id)).toEqual([made.id, other.id]);
    });

    it('after a crash keeps finished leaves and finds the unfinished ones to resume', async () => {
      const { store, made } = await batch();
      const [inbox, calendar, draft] = made.leaves;
      const child = async () => (await store.createSession()).id;
      await store.claimLeaf(inbox!.id, await child());
      await store.finishLeaf(inbox!.id, { status: 'done', output: 'ok' });
      await store.claimLeaf(calendar!.id, await child());
      await store.finishLeaf(calendar!.id, { status: 'timed_out', errors: ['no answer within 15 minutes'] });
      await store.claimLeaf(draft!.id, await child());
      // The process dies here: the draft leaf stays `running`.
      const reopened = await subject.reopen(store);
      const [unfinished] = await reopened.listBatches({ unfinished: true });
      expect(unfinished?.id).toBe(made.id);
      expect(unfinished?.leaves.map((l) => l.status)).toEqual(['done', 'timed_out', 'running']);
      expect(unfinished?.leaves[1]?.errors).toEqual(['no answer within 15 minutes']);

      expect(await reopened.requeueLeaf(draft!.id)).toBe(true);
      expect(await reopened.requeueLeaf(draft!.id)).toBe(false);
      const draftChild = (await reopened.getBatch(made.id))?.leaves[2]?.childSessionId;
      expect(await reopened.claimLeaf(draft!.id, draftChild!)).toBe(true);
      await reopened.finishLeaf(draft!.id, { status: 'failed', errors: ['write refused'] });
      expect(await reopened.finishBatch(made.id, 'done')).toBe(true);
      expect(await reopened.finishBatch(made.id, 'failed')).toBe(false);
      expect(await reopened.listBatches({ unfinished: true })).toEqual([]);
      expect((await reopened.getBatch(made.id))?.endedAt).toBeDefined();
    });

    it('refuses a batch without leaves or with a leaf that is not explicit', async () => {
      const { store, parent } = await batch();
      await expect(store.createBatch({ parentSessionId: parent.id, leaves: [] })).rejects.toThrow(
        /at least one leaf/,
      );
      await expect(
        store.createBatch({
          parentSessionId: parent.id,
          leaves: [{ title: 'x', contract: 'do it' as never }],
        }),
      ).rejects.toThrow(/contract of leaf 1 must be a JSON object/);
      await expect(
        store.createBatch({ parentSessionId: parent.id, leaves: [{ title: '', contract: {} }] }),
      ).rejects.toThrow(/title of leaf 1/);
      await expect(store.createBatch({ parentSessionId: 'missing', leaves: LEAVES })).rejects.toThrow(
        StoreNotFoundError,
      );
      expect(await store.listBatches({ parentSessionId: parent.id })).toHaveLength(1);
    });
  });
}
