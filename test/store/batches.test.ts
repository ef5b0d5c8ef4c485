import { describe, expect, it } from 'vitest';
import { StoreConflictError, StoreNotFoundError } from '../../src/core/store-errors.js';
import { openTestStore } from './store-fixtures.js';

const LEAVES = [
  { title: 'Inbox', contract: { task: 'sweep the inbox', output_format: 'bullet list' }, agent: 'mail' },
  { title: 'Calendar', contract: { task: 'list this week', writes: [] } },
  { title: 'Draft', contract: { task: 'draft a summary', writes: ['notes/summary.md'] } },
];

function batch() {
  const store = openTestStore();
  const parent = store.createSession();
  const turn = store.startTurn({ sessionId: parent.id, userText: 'check everything' });
  const made = store.createBatch({
    parentSessionId: parent.id,
    turnId: turn.id,
    callId: 'c1',
    title: 'Morning',
    leaves: LEAVES,
  });
  return { store, parent, made };
}

describe('subagent batches', () => {
  it('creates a running batch with its leaves queued, in order', () => {
    const { store, parent, made } = batch();
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
    expect(store.getBatch(made.id)).toEqual(made);
    expect(store.listBatches({ parentSessionId: parent.id }).map((b) => b.id)).toEqual([made.id]);
  });

  it('claims a leaf exactly once, finishes it, and refuses to finish it twice', () => {
    const { store, made } = batch();
    const child = store.createSession({ title: 'leaf: Inbox' });
    const leaf = made.leaves[0]!;
    expect(store.claimLeaf(leaf.id, child.id)).toBe(true);
    expect(store.claimLeaf(leaf.id, child.id)).toBe(false);
    const done = store.finishLeaf(leaf.id, { status: 'done', output: '- 3 new mails' });
    expect(done).toMatchObject({
      status: 'done',
      output: '- 3 new mails',
      childSessionId: child.id,
      errors: [],
    });
    expect(done.startedAt).toBeDefined();
    expect(done.endedAt).toBeDefined();
    expect(() => store.finishLeaf(leaf.id, { status: 'failed' })).toThrow(StoreConflictError);
    expect(() => store.claimLeaf('leaf-none', child.id)).toThrow(StoreNotFoundError);
    expect(() => store.claimLeaf(made.leaves[1]!.id, 'no-such-session')).toThrow(StoreNotFoundError);
  });

  it('finds the one batch whose leaf runs in a given child session', () => {
    const { store, parent, made } = batch();
    const other = store.createBatch({ parentSessionId: parent.id, title: 'Later', leaves: [LEAVES[1]!] });
    const child = store.createSession({ title: 'leaf: Calendar' });
    store.claimLeaf(other.leaves[0]!.id, child.id);
    expect(store.listBatches({ childSessionId: child.id }).map((b) => b.id)).toEqual([other.id]);
    expect(store.listBatches({ childSessionId: parent.id })).toEqual([]);
    expect(store.listBatches().map((b) => b.id)).toEqual([made.id, other.id]);
  });

  it('after a crash keeps finished leaves and finds the unfinished ones to resume', () => {
    const { store, made } = batch();
    const [inbox, calendar, draft] = made.leaves;
    const child = () => store.createSession().id;
    store.claimLeaf(inbox!.id, child());
    store.finishLeaf(inbox!.id, { status: 'done', output: 'ok' });
    store.claimLeaf(calendar!.id, child());
    store.finishLeaf(calendar!.id, { status: 'timed_out', errors: ['no answer within 15 minutes'] });
    store.claimLeaf(draft!.id, child());
    // The process dies here: the draft leaf stays `running`.
    const reopened = openTestStore(store.path);
    const [unfinished] = reopened.listBatches({ unfinished: true });
    expect(unfinished?.id).toBe(made.id);
    expect(unfinished?.leaves.map((l) => l.status)).toEqual(['done', 'timed_out', 'running']);
    expect(unfinished?.leaves[1]?.errors).toEqual(['no answer within 15 minutes']);

    expect(reopened.requeueLeaf(draft!.id)).toBe(true);
    expect(reopened.requeueLeaf(draft!.id)).toBe(false);
    const draftChild = reopened.getBatch(made.id)?.leaves[2]?.childSessionId;
    expect(reopened.claimLeaf(draft!.id, draftChild!)).toBe(true);
    reopened.finishLeaf(draft!.id, { status: 'failed', errors: ['write refused'] });
    expect(reopened.finishBatch(made.id, 'done')).toBe(true);
    expect(reopened.finishBatch(made.id, 'failed')).toBe(false);
    expect(reopened.listBatches({ unfinished: true })).toEqual([]);
    expect(reopened.getBatch(made.id)?.endedAt).toBeDefined();
  });

  it('refuses a batch without leaves or with a leaf that is not explicit', () => {
    const { store, parent } = batch();
    expect(() => store.createBatch({ parentSessionId: parent.id, leaves: [] })).toThrow(/at least one leaf/);
    expect(() =>
      store.createBatch({ parentSessionId: parent.id, leaves: [{ title: 'x', contract: 'do it' as never }] }),
    ).toThrow(/contract of leaf 1 must be a JSON object/);
    expect(() =>
      store.createBatch({ parentSessionId: parent.id, leaves: [{ title: '', contract: {} }] }),
    ).toThrow(/title of leaf 1/);
    expect(() => store.createBatch({ parentSessionId: 'missing', leaves: LEAVES })).toThrow(
      StoreNotFoundError,
    );
    expect(store.listBatches({ parentSessionId: parent.id })).toHaveLength(1);
  });
});
