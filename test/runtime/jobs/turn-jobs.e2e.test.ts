import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../../src/core/session-store.js';
import { createModelAdapter } from '../../../src/providers/index.js';
import { openPgBossQueue } from '../../../src/queue/index.js';
import { TurnJobs } from '../../../src/runtime/jobs/turn-jobs.js';
import { QUEUED_OWNER } from '../../../src/runtime/resume/turn-owner.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { openStore } from '../../../src/store/index.js';
import {
  type ScriptRequest,
  type ScriptTurn,
  type StandIn,
  startStandIn,
} from '../../../src/testing/index.js';
import { createToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import { requirePostgres } from '../../store/pg-fixtures.js';
import {
  dropSchema,
  logLines,
  startWorker,
  TEST_PG,
  until,
  type WorkerProcess,
} from '../../support/job-processes.js';
import { contract } from '../subagents/subagent-fixtures.js';

const LEAVES = 30;

/**
 * The stand-in's model: a user message asks for one step (named after the message), a result ends the
 * turn; a message starting "batch" runs 30 leaves (two batches of 15), each of which takes one step.
 */
function answer(request: ScriptRequest): ScriptTurn {
  const last = request.messages.at(-1);
  const leaf = /Task: (leaf-\d+)/.exec(request.lastUserMessage)?.[1];
  if (leaf !== undefined) {
    if (last?.role === 'user') return { toolCalls: [{ name: 'slow_step', arguments: { tag: leaf } }] };
    return { text: `${leaf} finished.` };
  }
  if (request.lastUserMessage.startsWith('batch')) {
    if (last?.role !== 'user') return { text: `Batch over: ${request.lastToolResult?.content.slice(0, 60)}` };
    // One call starts at most 24 leaves: the 30 go as two calls of 15 in one reply.
    const tasks = (from: number) =>
      Array.from({ length: LEAVES / 2 }, (_, i) =>
        contract(`leaf-${from + i}`, `Leaf ${from + i}`, { capability: 'mutating' }),
      );
    return {
      toolCalls: [
        { name: 'subagent_run', arguments: { tasks: tasks(0) } },
        { name: 'subagent_run', arguments: { tasks: tasks(LEAVES / 2) } },
      ],
    };
  }
  if (last?.role === 'user') {
    const tool = last.content.startsWith('careful') ? 'careful_step' : 'slow_step';
    return { toolCalls: [{ name: tool, arguments: { tag: last.content } }] };
  }
  return { text: `ok: ${request.lastToolResult?.content ?? ''}` };
}

describe('turns as jobs on pg-boss, run by worker processes', () => {
  let dir: string;
  let schema: string;
  let storeSchema: string;
  let standIn: StandIn;
  const workers: WorkerProcess[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  beforeAll(requirePostgres);

  async function setUp(): Promise<{ db: string; log: string; model: Record<string, unknown> }> {
    dir = mkdtempSync(join(tmpdir(), 'toolseam-jobs-'));
    schema = `jobs_test_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
    storeSchema = `${schema}_store`;
    standIn = await startStandIn({ family: 'openai' });
    standIn.push(...Array.from({ length: 400 }, () => ({ respond: answer })));
    closers.push(() => standIn.close());
    const model = { ...standIn.modelConfig(), retry: { maxRetries: 0 } };
    // Every process shares one PostgreSQL store, in a schema of this test's own.
    return { db: `${TEST_PG}?schema=${storeSchema}`, log: join(dir, 'tools.log'), model };
  }

  /** The sending side, as `serve` has it: stores turns and puts them on the queue; runs none. */
  async function sender(db: string, model: Record<string, unknown>) {
    const store = await openStore(db);
    let jobs: TurnJobs | undefined;
    const runtime = new Runtime({
      model: createModelAdapter(model as never),
      registry: createToolRegistry(),
      store,
      hosted: { onAnswered: async (approval) => jobs?.answered(approval) },
    });
    const queue = await openPgBossQueue({ url: TEST_PG, schema });
    jobs = new TurnJobs({ runtime, queue });
    closers.push(async () => {
      await queue.stop({ timeoutMs: 1_000 });
      await runtime.close();
    });
    const send = async (text: string): Promise<string> => {
      const session = await runtime.session();
      const turn = await runtime.queueTurn(session.id, text);
      await (jobs as TurnJobs).enqueue(turn.id);
      return turn.id;
    };
    return { runtime, store, send };
  }

  async function turnEnds(store: SessionStore, turnId: string): Promise<number> {
    const events = await store.listTurnEvents({ turnId });
    return events.filter((e) => e.type === 'turn-end').length;
  }

  afterEach(async () => {
    for (const w of workers.splice(0)) {
      w.child.kill('SIGKILL');
      await w.exited;
    }
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await dropSchema(schema).catch(() => undefined);
    await dropSchema(storeSchema).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a worker killed in the middle of a turn: another takes it over, every turn ends once, no call runs twice', async () => {
    const { db, log, model } = await setUp();
    const { store, send } = await sender(db, model);
    const base = { db, queueUrl: TEST_PG, schema, model, log, slowMs: 1_500 };
    workers.push(await startWorker(base), await startWorker(base));
    const turnIds: string[] = [];
    for (let i = 0; i < 6; i++) turnIds.push(await send(`step-${i}`));

    // The first tool run under way: its worker is killed in the middle of it.
    await until(() => logLines(log).some((l) => l.kind === 'start'), 'a tool to start');
    const victim = logLines(log).find((l) => l.kind === 'start') as { tag: string; pid: number };
    const killed = workers.find((w) => w.pid === victim.pid) as WorkerProcess;
    expect(killed).toBeDefined();
    killed.child.kill('SIGKILL');
    await killed.exited;

    // Ended in the store, and the ending kept among the turn's events (written just after).
    const ended = async () => {
      const turns = await Promise.all(turnIds.map((id) => store.getTurn(id)));
      const ends = await Promise.all(turnIds.map((id) => turnEnds(store, id)));
      return turns.every((t) => t?.status === 'done') && ends.every((n) => n > 0);
    };
    await until(ended, 'every turn to end', 120_000);
    for (const id of turnIds) expect(await turnEnds(store, id)).toBe(1);

    // Each step started once at most; the one cut short never finished, and was not run again.
    const lines = logLines(log);
    for (let i = 0; i < 6; i++) {
      expect(lines.filter((l) => l.kind === 'start' && l.tag === `step-${i}`).length).toBeLessThanOrEqual(1);
    }
    expect(lines.filter((l) => l.tag === victim.tag).map((l) => l.kind)).toEqual(['start']);
    // The model was told the call was cut short, by the worker that took the turn over.
    const told = standIn.requests.some((r) =>
      r.messages.some(
        (m) =>
          m.role === 'tool' &&
          m.content.includes('whether it finished is unknown') &&
          r.lastUserMessage === victim.tag,
      ),
    );
    expect(told).toBe(true);
    const victimTurn = turnIds[Number(victim.tag.split('-')[1])] as string;
    const calls = await store.listToolCalls({ turnId: victimTurn });
    expect(calls.map((c) => c.status)).toEqual(['failed']);
  });

  it('a turn waiting for approval is parked (no worker holds it); the answer sends its continuation', async () => {
    const { db, log, model } = await setUp();
    const { runtime, store, send } = await sender(db, model);
    const base = { db, queueUrl: TEST_PG, schema, model, log, slowMs: 10 };
    workers.push(await startWorker(base));
    const turnId = await send('careful-1');
    await until(async () => (await store.listApprovals({ status: 'pending' })).length === 1, 'the question');
    await until(async () => (await store.getTurn(turnId))?.owner === QUEUED_OWNER, 'the turn to be parked');
    expect((await store.getTurn(turnId))?.status).toBe('waiting_approval');

    // No worker holds it: even with every worker gone, a new one goes on once it is answered.
    const first = workers.pop() as WorkerProcess;
    first.child.kill('SIGKILL');
    await first.exited;
    workers.push(await startWorker(base));
    const [pending] = await store.listApprovals({ status: 'pending' });
    await runtime.respond(pending?.id as string, { kind: 'approve' }, { digest: pending?.digest as string });

    await until(
      async () => (await store.getTurn(turnId))?.status === 'done' && (await turnEnds(store, turnId)) > 0,
      'the turn to end',
    );
    expect(await turnEnds(store, turnId)).toBe(1);
    expect(
      logLines(log)
        .filter((l) => l.kind === 'start')
        .map((l) => l.tag),
    ).toEqual(['careful-1']);
  });

  it('an automation occurrence runs once with three worker processes racing for it', async () => {
    const { db, log, model } = await setUp();
    const store = await openStore(db);
    closers.push(() => store.close());
    await store.createAutomation({
      name: 'digest',
      schedule: 'every day at 08:00',
      cron: '0 8 * * *',
      prompt: 'Write the digest.',
      nextRunAt: Date.now() - 60_000,
    });
    const base = { db, queueUrl: TEST_PG, schema, model, log, slowMs: 10, automations: true };
    // Started together: each sends a job for the due occurrence at once and works on automation jobs.
    workers.push(...(await Promise.all([startWorker(base), startWorker(base), startWorker(base)])));
    await until(
      async () => (await store.getAutomation('digest'))?.lastRun?.finishedAt !== undefined,
      'the run',
    );
    // Every worker looks at what is due once a second: after a few more looks, still one run.
    await new Promise((r) => setTimeout(r, 3_000));
    const runs = logLines(log).filter((l) => l.kind === 'automation');
    expect(runs).toHaveLength(1);
    const automation = await store.getAutomation('digest');
    expect(automation?.lastRun?.status).toBe('done');
    expect(Date.parse(automation?.nextRunAt as string)).toBeGreaterThan(Date.now());
    const sessions = await store.listSessions();
    expect(sessions).toHaveLength(1);
  });

  it('a worker killed in the middle of 30 leaves: another finishes them, every leaf runs once', async () => {
    const { db, log, model } = await setUp();
    const { store, send } = await sender(db, model);
    const base = { db, queueUrl: TEST_PG, schema, model, log, slowMs: 400, subagents: true };
    workers.push(await startWorker(base), await startWorker(base));
    const turnId = await send('batch of thirty');

    // The leaves are jobs of their own: both workers run some while the parent turn is parked.
    const leafPids = () =>
      new Set(
        logLines(log)
          .filter((l) => l.kind === 'leaf')
          .map((l) => l.pid),
      );
    await until(() => leafPids().size === 2, 'both workers to run leaves');
    await until(
      () => logLines(log).filter((l) => l.kind === 'done').length >= 5,
      'five leaves to take their step',
    );
    const parked = await store.getTurn(turnId);
    expect(parked?.owner).toBe(QUEUED_OWNER);
    expect(parked?.status).toBe('running');
    // A worker running leaves is killed in the middle of the batch.
    const runner = logLines(log).find((l) => l.kind === 'leaf')?.pid as number;
    const killed = workers.find((w) => w.pid === runner) as WorkerProcess;
    killed.child.kill('SIGKILL');
    await killed.exited;

    await until(
      async () => (await store.getTurn(turnId))?.status === 'done' && (await turnEnds(store, turnId)) > 0,
      'the parent turn to end',
      180_000,
    );
    expect(await turnEnds(store, turnId)).toBe(1);
    const parent = (await store.getTurn(turnId))?.sessionId as string;
    const batches = await store.listBatches({ parentSessionId: parent });
    expect(batches.map((b) => b.status)).toEqual(['done', 'done']);
    const leaves = batches.flatMap((b) => b.leaves);
    expect(leaves).toHaveLength(LEAVES);
    expect(leaves.every((l) => l.status === 'done')).toBe(true);
    // Each leaf ran in one child session, one turn, and took its step at most once.
    const lines = logLines(log);
    for (const l of leaves) {
      const turns = await store.listTurns({ sessionId: l.childSessionId as string });
      expect(turns).toHaveLength(1);
    }
    for (let i = 0; i < LEAVES; i++) {
      expect(lines.filter((l) => l.kind === 'start' && l.tag === `leaf-${i}`).length).toBeLessThanOrEqual(1);
    }
    // The other worker finished what the killed one left.
    expect(lines.some((l) => l.pid !== runner)).toBe(true);
    // Every leaf was run by some worker; one the killed worker had started was taken over by the other.
    const ranLeaves = new Set(lines.filter((l) => l.kind === 'leaf').map((l) => l.tag));
    expect(ranLeaves).toEqual(new Set(leaves.map((l) => l.id)));
    // The parent's two calls carry every leaf's answer, and the parent ended once with them.
    const calls = await store.listToolCalls({ turnId });
    expect(calls.map((c) => [c.tool, c.status])).toEqual([
      ['subagent_run', 'done'],
      ['subagent_run', 'done'],
    ]);
    const results = calls.map((c) => c.result ?? '').join('\n');
    for (let i = 0; i < LEAVES; i++) expect(results).toContain(`leaf-${i} finished.`);
  });
});
