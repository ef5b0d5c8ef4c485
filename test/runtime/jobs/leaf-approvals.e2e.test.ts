import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../../src/core/session-store.js';
import { signalTopics } from '../../../src/core/signals.js';
import { createModelAdapter } from '../../../src/providers/index.js';
import { openPgBossQueue } from '../../../src/queue/index.js';
import { TurnJobs } from '../../../src/runtime/jobs/turn-jobs.js';
import { QUEUED_OWNER } from '../../../src/runtime/resume/turn-owner.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { TurnHub } from '../../../src/server/turn-hub.js';
import { openStore } from '../../../src/store/index.js';
import { PgSignals } from '../../../src/store/pg-signals/pg-signals.js';
import {
  type ScriptRequest,
  type ScriptTurn,
  type StandIn,
  startStandIn,
} from '../../../src/testing/index.js';
import { defineTool, field, inProcessProvider } from '../../../src/tools/index.js';
import { createToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import { dropSchemas, freshSchemaName, requirePostgres } from '../../store/pg-fixtures.js';
import { TEST_PG, until } from '../../support/job-processes.js';
import { type JobWorker, startJobWorker } from '../../support/job-worker-runtime.js';
import { contract } from '../subagents/subagent-fixtures.js';

/**
 * The stand-in's model: a message "batch N" asks for N leaves; leaf "ask-i" takes a step that needs a
 * person's yes (`careful_step`), leaf "leaf-i" a plain one (`step`); each leaf then says it finished,
 * and the parent ends saying the batch is over.
 */
function answer(request: ScriptRequest): ScriptTurn {
  const last = request.messages.at(-1);
  const leaf = /Task: ((?:ask|leaf)-\d+)/.exec(request.lastUserMessage)?.[1];
  if (leaf !== undefined) {
    if (last?.role !== 'user') return { text: `${leaf} finished: ${request.lastToolResult?.content}` };
    const name = leaf.startsWith('ask') ? 'careful_step' : 'step';
    return { toolCalls: [{ name, arguments: { tag: leaf } }] };
  }
  if (last?.role !== 'user') return { text: 'The batch is over.' };
  const [, asks, plain] = /^batch (\d+) (\d+)/.exec(request.lastUserMessage) ?? [];
  const tasks = [
    ...Array.from({ length: Number(asks) }, (_, i) => `ask-${i}`),
    ...Array.from({ length: Number(plain) }, (_, i) => `leaf-${i}`),
  ].map((tag) => contract(tag, tag, { capability: 'mutating' }));
  return { toolCalls: [{ name: 'subagent_run', arguments: { tasks } }] };
}

/** One tool run, as a worker saw it. */
interface Run {
  readonly tag: string;
  readonly by: string;
  readonly kind: 'start' | 'done';
}

describe('a leaf run as a job waits for a person parked, holding no worker', () => {
  let standIn: StandIn;
  const schemas: string[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  beforeAll(requirePostgres);

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await dropSchemas(schemas.splice(0));
  });

  /**
   * A deployment on one PostgreSQL: workers (turns and leaves as jobs) and a `serve` runtime that only
   * sends, answers and stops; each has its own store pool and its own LISTEN/NOTIFY connection.
   */
  async function setUp(settings: { readonly stepMs: number; readonly approvalMs?: number }) {
    const storeSchema = freshSchemaName();
    const jobSchema = `${storeSchema}_jobs`;
    schemas.push(storeSchema, jobSchema);
    standIn = await startStandIn({ family: 'openai' });
    standIn.push(...Array.from({ length: 100 }, () => ({ respond: answer })));
    closers.push(() => standIn.close());
    const model = { ...standIn.modelConfig(), retry: { maxRetries: 0 } };
    const db = `${TEST_PG}?schema=${storeSchema}`;
    const runs: Run[] = [];
    const workers: JobWorker[] = [];

    async function worker(name: string) {
      const run = async (tag: string): Promise<string> => {
        runs.push({ tag, by: name, kind: 'start' });
        // Ignores its stop, as slow outside work does: the turn stops waiting for it.
        await sleep(settings.stepMs);
        runs.push({ tag, by: name, kind: 'done' });
        return `did ${tag}`;
      };
      const fields = { tag: field.string({ maxLength: 100 }) };
      const step = defineTool({
        name: 'step',
        description: 'Take one step.',
        risk: 'safe',
        fields,
        handler: (a) => run(a.tag),
      });
      const careful = defineTool({
        name: 'careful_step',
        description: 'Take one step a person agrees to first.',
        risk: 'caution',
        fields,
        handler: (a) => run(a.tag),
      });
      const started = await startJobWorker({
        db,
        jobSchema,
        model,
        tools: inProcessProvider({ name: 'steps', tools: [step, careful] }),
        signals: await PgSignals.connect({ connectionString: TEST_PG }),
        ...(settings.approvalMs === undefined ? {} : { approvalMs: settings.approvalMs }),
      });
      closers.push(() => started.close());
      workers.push(started);
    }

    /** `serve` without "work": stores turns and sends them, answers approvals, stops turns. */
    async function serve() {
      const store = await openStore(db);
      let turns: TurnJobs | undefined;
      const runtime = new Runtime({
        model: createModelAdapter(model as never),
        registry: createToolRegistry(),
        store,
        signals: await PgSignals.connect({ connectionString: TEST_PG }),
        hosted: { onAnswered: async (approval) => turns?.answered(approval) },
      });
      const hub = new TurnHub({ store, logger: runtime.logger, signals: runtime.signals });
      const queue = await openPgBossQueue({ url: TEST_PG, schema: jobSchema });
      const jobs = new TurnJobs({ runtime, queue });
      turns = jobs;
      closers.push(async () => {
        await queue.stop({ timeoutMs: 1_000 });
        await hub.flushed();
        await runtime.close();
      });
      const send = async (text: string): Promise<string> => {
        const session = await runtime.session();
        const turn = await runtime.queueTurn(session.id, text);
        await jobs.enqueue(turn.id);
        return turn.id;
      };
      /** What the stop route does with a turn no process holds: ends it, keeps its end, signals its leaves. */
      const stop = async (turnId: string): Promise<boolean> => {
        const turn = await store.getTurn(turnId);
        if (!turn || !(await runtime.stopUnheldTurn(turn))) return false;
        const end = { type: 'turn-end' as const, turnId, status: 'stopped' as const, message: 'Stopped.' };
        await hub.keepEnd(end, turn.sessionId);
        await runtime.signals.publish(signalTopics.stopTurn(turn.sessionId), turnId);
        return true;
      };
      return { runtime, store, send, stop };
    }

    /** Leaf jobs pg-boss holds as active (leased to a worker) now. */
    async function activeLeafJobs(): Promise<number> {
      const client = new pg.Client({ connectionString: TEST_PG });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM "${jobSchema}".job WHERE name = 'leaf' AND state = 'active'`,
        );
        return (rows[0] as { n: number }).n;
      } finally {
        await client.end();
      }
    }

    return { worker, serve, runs, workers, activeLeafJobs };
  }

  async function turnEnds(store: SessionStore, turnId: string): Promise<number> {
    return (await store.listTurnEvents({ turnId })).filter((e) => e.type === 'turn-end').length;
  }

  /** The batch of the turn's session, and the leaf titled `title` in it. */
  async function leafOf(store: SessionStore, turnId: string, title: string) {
    const parent = (await store.getTurn(turnId))?.sessionId as string;
    const [batch] = await store.listBatches({ parentSessionId: parent });
    const leaf = batch?.leaves.find((l) => l.title === title);
    const child = leaf?.childSessionId;
    const turn = child === undefined ? undefined : (await store.listTurns({ sessionId: child })).at(-1);
    return { batch, leaf, turn };
  }

  /** Waits until leaf `title`'s turn is parked on its question; that question. */
  async function parkedQuestion(store: SessionStore, turnId: string, title: string) {
    await until(async () => {
      const { turn } = await leafOf(store, turnId, title);
      return turn?.status === 'waiting_approval' && turn.owner === QUEUED_OWNER;
    }, `leaf ${title} to park on its question`);
    const { turn } = await leafOf(store, turnId, title);
    const [approval] = await store.listApprovals({ turnId: turn?.id as string });
    expect(approval?.status).toBe('pending');
    expect(approval?.leafTitle).toBe(title);
    return approval as NonNullable<typeof approval>;
  }

  it('the leaf parks on its question: no worker slot or job lease held; the answer on the serve process sends the leaf on, which runs the step once', async () => {
    const d = await setUp({ stepMs: 100 });
    await d.worker('a');
    await d.worker('b');
    const s = await d.serve();
    const turnId = await s.send('batch 1 1');
    const approval = await parkedQuestion(s.store, turnId, 'ask-0');
    await until(async () => (await leafOf(s.store, turnId, 'leaf-0')).leaf?.status === 'done', 'leaf-0');

    // Nothing runs, nothing is leased: the parent waits on its batch, the leaf on its question.
    await until(() => d.workers.every((w) => w.leaves.busy === 0), 'the workers to let the leaves go');
    await until(async () => (await d.activeLeafJobs()) === 0, 'the leaf jobs to end');
    const parent = await s.store.getTurn(turnId);
    expect([parent?.owner, parent?.status]).toEqual([QUEUED_OWNER, 'running']);
    expect((await leafOf(s.store, turnId, 'ask-0')).leaf?.status).toBe('running');
    // The person sees the question among the parent turn's events.
    const events = await s.store.listTurnEvents({ turnId });
    expect(events.some((e) => e.type === 'approval-request')).toBe(true);
    expect(d.runs.filter((r) => r.tag === 'ask-0')).toEqual([]);

    await s.runtime.respond(approval.id, { kind: 'approve' });
    await until(
      async () => (await s.store.getTurn(turnId))?.status === 'done' && (await turnEnds(s.store, turnId)) > 0,
      'the parent turn to end',
    );
    expect(await turnEnds(s.store, turnId)).toBe(1);
    expect(d.runs.filter((r) => r.tag === 'ask-0' && r.kind === 'start')).toHaveLength(1);
    const { batch, leaf } = await leafOf(s.store, turnId, 'ask-0');
    expect(batch?.status).toBe('done');
    expect(leaf).toMatchObject({ status: 'done', output: 'ask-0 finished: did ask-0' });
    const [call] = await s.store.listToolCalls({ turnId });
    expect(call?.result).toContain('ask-0 finished: did ask-0');
  }, 120_000);

  it('a parked leaf whose question passes its deadline goes on by the sweep: the step refused as unanswered', async () => {
    const d = await setUp({ stepMs: 100, approvalMs: 3_000 });
    await d.worker('a');
    const s = await d.serve();
    const turnId = await s.send('batch 1 0');
    const approval = await parkedQuestion(s.store, turnId, 'ask-0');
    await until(() => d.workers[0]?.leaves.busy === 0, 'the worker to let the leaf go');
    await until(async () => (await d.activeLeafJobs()) === 0, 'the leaf job to end');

    await until(async () => (await s.store.getTurn(turnId))?.status === 'done', 'the parent turn to end');
    expect((await s.store.getApproval(approval.id))?.status).toBe('expired');
    expect(d.runs).toEqual([]);
    const { leaf, turn } = await leafOf(s.store, turnId, 'ask-0');
    expect(leaf?.status).toBe('done');
    const [step] = await s.store.listToolCalls({ turnId: turn?.id as string });
    expect(step).toMatchObject({ tool: 'careful_step', isError: true });
    expect(await turnEnds(s.store, turnId)).toBe(1);
  }, 120_000);

  it('the parent stopped while its leaf is parked: the leaf and its question end, saying the person stopped the parent', async () => {
    const d = await setUp({ stepMs: 100 });
    await d.worker('a');
    const s = await d.serve();
    const turnId = await s.send('batch 1 0');
    const approval = await parkedQuestion(s.store, turnId, 'ask-0');

    expect(await s.stop(turnId)).toBe(true);
    const { batch, leaf, turn } = await leafOf(s.store, turnId, 'ask-0');
    expect(batch?.status).toBe('failed');
    expect(leaf?.status).toBe('failed');
    expect(leaf?.errors[0]).toBe(
      "the batch's parent turn was stopped by the person before this leaf finished",
    );
    expect(turn).toMatchObject({ status: 'stopped', error: 'its parent turn was stopped by the person' });
    expect((await s.store.getApproval(approval.id))?.status).toBe('cancelled');
    const [step] = await s.store.listToolCalls({ turnId: turn?.id as string });
    expect(step?.result).toBe(
      'Error: careful_step was not run: its parent turn was stopped by the person before it started.',
    );
    await expect(s.runtime.respond(approval.id, { kind: 'approve' })).rejects.toThrow();
    // Nothing sends the leaf on: its step never runs, the parent ends stopped once.
    await sleep(2_500);
    expect(d.runs).toEqual([]);
    expect((await s.store.getTurn(turnId))?.status).toBe('stopped');
    expect(await turnEnds(s.store, turnId)).toBe(1);
  }, 120_000);

  it('a leaf that parked just as its parent was stopped (its batch left open to its worker) is ended by the sweep, not at its deadline', async () => {
    const d = await setUp({ stepMs: 100 });
    await d.worker('a');
    const s = await d.serve();
    const turnId = await s.send('batch 1 0');
    const approval = await parkedQuestion(s.store, turnId, 'ask-0');
    // The stop's clean-up found the leaf still held by its worker and left the batch to it; the signal
    // came before the leaf parked, so nobody ran it when the leaf let go.
    expect(await s.store.setTurnStatus(turnId, 'stopped', { error: 'stopped by a person' })).toBe(true);

    await until(
      async () => (await leafOf(s.store, turnId, 'ask-0')).batch?.status === 'failed',
      'the batch to end',
      60_000,
    );
    const { leaf, turn } = await leafOf(s.store, turnId, 'ask-0');
    expect(leaf?.status).toBe('failed');
    expect(turn?.status).toBe('stopped');
    expect((await s.store.getApproval(approval.id))?.status).toBe('cancelled');
    expect(d.runs).toEqual([]);
  }, 120_000);

  it('a parked parent stopped through serve while another runtime runs its leaves: running leaves stop (their calls cut short), unstarted ones never start, the parent ends stopped once', async () => {
    const d = await setUp({ stepMs: 15_000 });
    await d.worker('a');
    const s = await d.serve();
    const turnId = await s.send('batch 0 6');
    // The worker runs two leaves at a time: two are in their step, four wait.
    await until(() => d.runs.filter((r) => r.kind === 'start').length === 2, 'two steps to start');
    const parked = await s.store.getTurn(turnId);
    expect(parked?.owner).toBe(QUEUED_OWNER);

    expect(await s.stop(turnId)).toBe(true);
    const parent = parked?.sessionId as string;
    await until(
      async () => (await s.store.listBatches({ parentSessionId: parent }))[0]?.status === 'failed',
      'the batch to end',
    );
    const started = d.runs.filter((r) => r.kind === 'start').map((r) => r.tag);
    expect(started).toHaveLength(2);
    const [batch] = await s.store.listBatches({ parentSessionId: parent });
    for (const leaf of batch?.leaves ?? []) {
      expect(leaf.status).toBe('failed');
      if (started.includes(leaf.title)) {
        expect(leaf.errors[0]).toBe('the batch was stopped before this leaf finished');
        const child = (await s.store.listTurns({ sessionId: leaf.childSessionId as string })).at(-1);
        expect(child?.status).toBe('stopped');
        // The leaf's model is told its step was cut short, not that it finished or never ran.
        const [step] = await s.store.listToolCalls({ turnId: child?.id as string });
        expect(step?.result).toMatch(/^Error: step was stopped while it ran/);
      } else {
        expect(leaf.childSessionId).toBeUndefined();
        expect(leaf.errors[0]).toBe(
          "the batch's parent turn was stopped by the person before this leaf started",
        );
      }
    }
    // The parent's call was answered by the stop, as cut short; the parent ended stopped, once.
    const [call] = await s.store.listToolCalls({ turnId });
    expect(call?.result).toContain('the person stopped its turn before its result came back');
    await sleep(2_500);
    expect((await s.store.getTurn(turnId))?.status).toBe('stopped');
    expect(await turnEnds(s.store, turnId)).toBe(1);
    expect(d.runs.filter((r) => r.kind === 'start')).toHaveLength(2);
  }, 120_000);
});
