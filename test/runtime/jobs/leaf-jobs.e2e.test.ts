import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../../src/core/session-store.js';
import { QUEUED_OWNER } from '../../../src/runtime/resume/turn-owner.js';
import {
  type ScriptRequest,
  type ScriptTurn,
  type StandIn,
  startStandIn,
} from '../../../src/testing/index.js';
import { defineTool, field, inProcessProvider } from '../../../src/tools/index.js';
import { dropSchemas, freshSchemaName, requirePostgres } from '../../store/pg-fixtures.js';
import { TEST_PG, until } from '../../support/job-processes.js';
import { startJobWorker } from '../../support/job-worker-runtime.js';
import { contract } from '../subagents/subagent-fixtures.js';

const LEAVES = 30;
/** Leaves 0 and 1 write the same note: they must never run at once. */
const WRITERS = ['leaf-0', 'leaf-1'];

/**
 * The stand-in's model: "batch" asks for 30 leaves in two calls; each leaf takes one step, then says
 * it finished; the parent then ends with the first lines of its results.
 */
function answer(request: ScriptRequest): ScriptTurn {
  const last = request.messages.at(-1);
  const leaf = /Task: (leaf-\d+)/.exec(request.lastUserMessage)?.[1];
  if (leaf !== undefined) {
    if (last?.role === 'user') return { toolCalls: [{ name: 'step', arguments: { tag: leaf } }] };
    return { text: `${leaf} finished.` };
  }
  if (last?.role !== 'user') return { text: 'The batch is over.' };
  const task = (i: number) =>
    contract(
      `leaf-${i}`,
      `Leaf ${i}`,
      // Mutating, so the step (not a read-only tool) runs: a research leaf runs in plan mode.
      { capability: 'mutating', ...(WRITERS.includes(`leaf-${i}`) ? { writes: ['notes/week.md'] } : {}) },
    );
  const tasks = (from: number) => Array.from({ length: LEAVES / 2 }, (_, i) => task(from + i));
  return {
    toolCalls: [
      { name: 'subagent_run', arguments: { tasks: tasks(0) } },
      { name: 'subagent_run', arguments: { tasks: tasks(LEAVES / 2) } },
    ],
  };
}

/** One step of a leaf, as a worker's tool saw it. */
interface Step {
  readonly tag: string;
  readonly by: string;
  readonly kind: 'start' | 'done';
}

describe('subagent leaves as jobs of two worker runtimes', () => {
  let standIn: StandIn;
  const schemas: string[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  beforeAll(requirePostgres);

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await dropSchemas(schemas.splice(0));
  });

  async function setUp() {
    const storeSchema = freshSchemaName();
    const jobSchema = `${storeSchema}_jobs`;
    schemas.push(storeSchema, jobSchema);
    standIn = await startStandIn({ family: 'openai' });
    standIn.push(...Array.from({ length: 200 }, () => ({ respond: answer })));
    closers.push(() => standIn.close());
    const model = { ...standIn.modelConfig(), retry: { maxRetries: 0 } };
    const db = `${TEST_PG}?schema=${storeSchema}`;
    const steps: Step[] = [];
    const ran: { leaf: string; by: string }[] = [];

    /** A worker runtime as `toolseam worker` sets it up: turns and leaves as jobs, its own store pool. */
    async function worker(name: string) {
      const step = defineTool({
        name: 'step',
        description: 'Take one step of the work.',
        risk: 'safe',
        fields: { tag: field.string({ maxLength: 100 }) },
        handler: async (a) => {
          steps.push({ tag: a.tag, by: name, kind: 'start' });
          await sleep(150);
          steps.push({ tag: a.tag, by: name, kind: 'done' });
          return `did ${a.tag}`;
        },
      });
      const started = await startJobWorker({
        db,
        jobSchema,
        model,
        tools: inProcessProvider({ name: 'steps', tools: [step] }),
        onLeaf: (leaf) => ran.push({ leaf, by: name }),
      });
      closers.push(() => started.close());
      return started;
    }

    const a = await worker('a');
    await worker('b');
    const send = async (text: string): Promise<string> => {
      const session = await a.runtime.session();
      const turn = await a.runtime.queueTurn(session.id, text);
      await a.turns.enqueue(turn.id);
      return turn.id;
    };
    return { a, store: a.store, steps, ran, send };
  }

  async function turnEnds(store: SessionStore, turnId: string): Promise<number> {
    return (await store.listTurnEvents({ turnId })).filter((e) => e.type === 'turn-end').length;
  }

  it('30 leaves spread over both workers while the parent is parked: each runs once, the parent ends once with every result', async () => {
    const { store, steps, ran, send } = await setUp();
    const turnId = await send('batch of thirty');
    await until(() => ran.length >= 3, 'leaves to start');
    // No worker holds the parent while its leaves run.
    const parked = await store.getTurn(turnId);
    expect([parked?.owner, parked?.status]).toEqual([QUEUED_OWNER, 'running']);

    await until(
      async () => (await store.getTurn(turnId))?.status === 'done' && (await turnEnds(store, turnId)) > 0,
      'the parent turn to end',
      120_000,
    );
    expect(await turnEnds(store, turnId)).toBe(1);
    const parent = (await store.getTurn(turnId))?.sessionId as string;
    const batches = await store.listBatches({ parentSessionId: parent });
    expect(batches.map((b) => b.status)).toEqual(['done', 'done']);
    const leaves = batches.flatMap((b) => b.leaves);
    expect(leaves.every((l) => l.status === 'done')).toBe(true);

    // Every leaf was claimed and run by exactly one worker, and took its step once; both workers ran some.
    expect(ran.map((r) => r.leaf).sort()).toEqual(leaves.map((l) => l.id).sort());
    expect(new Set(ran.map((r) => r.by))).toEqual(new Set(['a', 'b']));
    for (let i = 0; i < LEAVES; i++) {
      expect(steps.filter((s) => s.kind === 'start' && s.tag === `leaf-${i}`)).toHaveLength(1);
    }
    // The two leaves writing one note ran one after the other, whichever workers took them.
    const at = (tag: string, kind: Step['kind']) => steps.findIndex((s) => s.tag === tag && s.kind === kind);
    expect(at('leaf-1', 'start')).toBeGreaterThan(at('leaf-0', 'done'));

    // The parent's calls carry every leaf's answer, and the warning the batch compiled with.
    const calls = await store.listToolCalls({ turnId });
    expect(calls.map((c) => c.status)).toEqual(['done', 'done']);
    const results = calls.map((c) => c.result ?? '').join('\n');
    for (let i = 0; i < LEAVES; i++) expect(results).toContain(`leaf-${i} finished.`);
    expect(results).toContain('[multi_writer] (warning)');
    // The leaves' progress reached the parent's events (the person's stream), from both workers.
    const progress = (await store.listTurnEvents({ turnId })).filter((e) => e.type === 'leaf');
    expect(progress.length).toBeGreaterThanOrEqual(LEAVES * 2);
  }, 180_000);

  it('the parked parent stopped in the middle: leaves not started never start, the batch ends failed, the turn ends stopped', async () => {
    const { a, store, ran, send } = await setUp();
    const turnId = await send('batch of thirty');
    await until(() => ran.length >= 2, 'leaves to start');
    const turn = await store.getTurn(turnId);
    expect(turn?.owner).toBe(QUEUED_OWNER);
    expect(await a.runtime.stopUnheldTurn(turn as NonNullable<typeof turn>)).toBe(true);

    const parent = turn?.sessionId as string;
    await until(
      async () => (await store.listBatches({ parentSessionId: parent })).every((b) => b.status !== 'running'),
      'both batches to end',
      120_000,
    );
    const batches = await store.listBatches({ parentSessionId: parent });
    expect(batches.map((b) => b.status)).toEqual(['failed', 'failed']);
    const leaves = batches.flatMap((b) => b.leaves);
    // Leaves no worker had claimed when the stop came never started: failed, with no session.
    const unstarted = leaves.filter((l) => l.childSessionId === undefined);
    expect(unstarted.length).toBeGreaterThan(0);
    for (const l of unstarted) {
      expect(l.status).toBe('failed');
      expect(l.errors[0]).toMatch(/before this leaf started/);
      expect(ran.map((r) => r.leaf)).not.toContain(l.id);
    }
    expect(ran.length).toBeLessThan(LEAVES);
    expect((await store.getTurn(turnId))?.status).toBe('stopped');
  }, 180_000);
});
