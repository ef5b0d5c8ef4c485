import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnState } from '../../../src/core/session-records.js';
import type { SessionStore } from '../../../src/core/session-store.js';
import { openPostgresStore } from '../../../src/store/postgres/index.js';
import { readEvents } from '../../../src/testing/event-stream-reader.js';
import {
  type ScriptRequest,
  type ScriptTurn,
  type StandIn,
  startStandIn,
} from '../../../src/testing/index.js';
import { runToolseam } from '../../cli/run-toolseam.js';
import { apiCall } from '../../server/served.js';
import { dropSchemas, freshSchemaName, requirePostgres } from '../../store/pg-fixtures.js';
import { logLines, TEST_PG, until } from '../../support/job-processes.js';
import {
  startServeProcess,
  startWorkerProcess,
  type ToolseamProcess,
} from '../../support/toolseam-processes.js';
import { contract } from '../subagents/subagent-fixtures.js';

/** Sessions sending a turn at once (the 100; TOOLSEAM_HOSTED_SESSIONS for fewer or more). */
const SESSIONS = Number(process.env.TOOLSEAM_HOSTED_SESSIONS ?? 100);
const LEAVES = 30;
const STEP_SERVER = join(import.meta.dirname, '..', '..', 'support', 'mcp-step-server.mjs');

/** The name the stand-in was offered for the step server's tool `name`. */
function offered(request: ScriptRequest, name: string): string {
  const tool = (request.tools ?? []).find((t) => t.name.endsWith(name));
  if (!tool) throw new Error(`the model was not offered ${name}`);
  return tool.name;
}

/**
 * The stand-in's model: "hello N" is answered with text; "careful-N" and "slow-N" call the step of that
 * kind once (the first after a pause, so the test sees which worker holds the turn), then end with the
 * tool's result.
 */
function answer(request: ScriptRequest): ScriptTurn {
  const text = request.lastUserMessage;
  const leaf = /Task: (leaf-\d+)/.exec(text)?.[1];
  if (leaf !== undefined) return { delayMs: 300, text: `${leaf} finished.` };
  if (text.startsWith('batch')) {
    if (request.messages.at(-1)?.role !== 'user') return { text: 'Batch over.' };
    // One call starts at most 24 leaves: the 30 go as two calls of 15.
    const tasks = (from: number) =>
      Array.from({ length: LEAVES / 2 }, (_, i) => contract(`leaf-${from + i}`, `Leaf ${from + i}`));
    return {
      toolCalls: [
        { name: 'subagent_run', arguments: { tasks: tasks(0) } },
        { name: 'subagent_run', arguments: { tasks: tasks(LEAVES / 2) } },
      ],
    };
  }
  if (text.startsWith('hello')) return { text: `hi, ${text}` };
  if (request.messages.at(-1)?.role === 'user') {
    const careful = text.startsWith('careful');
    const name = offered(request, careful ? 'careful_step' : 'slow_step');
    return { ...(careful ? { delayMs: 2_000 } : {}), toolCalls: [{ name, arguments: { tag: text } }] };
  }
  return { text: `ok: ${request.lastToolResult?.content ?? ''}` };
}

const json = async <T>(response: Response): Promise<T> => {
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as T;
};

interface Started {
  readonly turnId: string;
  readonly events: string;
}

describe('two serve and three worker processes on one PostgreSQL store and job queue', () => {
  let dir: string;
  let standIn: StandIn;
  let store: SessionStore;
  let db: string;
  let log: string;
  const schema = freshSchemaName();
  const serves: { child: ToolseamProcess; base: string }[] = [];
  const workers: ToolseamProcess[] = [];
  const tokens: Record<'ann' | 'bob', string> = { ann: '', bob: '' };
  const flags = () => ['--db', db, '--base-url', standIn.baseURL, '--model', 'demo'];
  const addWorker = async () => {
    workers.push(await startWorkerProcess(flags(), dir));
  };

  beforeAll(async () => {
    await requirePostgres();
    dir = mkdtempSync(join(tmpdir(), 'toolseam-hosted-'));
    log = join(dir, 'steps.log');
    // A pool of 4 a process (each opens at most 10 then): the five processes here shared PostgreSQL's 100
    // connections with the other test files running beside this one, and with 16 a process (74 at once,
    // measured) a job test beside it was once refused ("sorry, too many clients already").
    db = `${TEST_PG}?schema=${schema}&pool=4`;
    standIn = await startStandIn({ family: 'openai' });
    standIn.push(...Array.from({ length: SESSIONS * 2 + LEAVES * 2 + 80 }, () => ({ respond: answer })));
    // Every process reads this: the serve processes only send turns; a silent worker is given up
    // after 4 s and the workers look for turns to take over every second.
    writeFileSync(
      join(dir, 'toolseam.json'),
      JSON.stringify({
        queue: { work: false, takeoverSeconds: 4, sweepSeconds: 1 },
        mcpServers: { steps: { command: process.execPath, args: [STEP_SERVER, log, '4000'] } },
      }),
    );
    for (const name of ['ann', 'bob'] as const) {
      const added = await runToolseam(['users', 'add', name, '--db', db], dir);
      expect(added.code, added.stderr).toBe(0);
      tokens[name] = added.stdout.match(/^tsu\.\S+$/m)?.[0] as string;
      expect(tokens[name]).toBeDefined();
    }
    serves.push(...(await Promise.all([0, 1].map(() => startServeProcess(flags(), dir)))));
    for (let i = 0; i < 3; i++) await addWorker();
    // Few connections: five processes of pools share the server's hundred with other tests.
    store = await openPostgresStore({ url: db, maxConnections: 2 });
  });

  afterAll(async () => {
    for (const c of [...serves.map((s) => s.child), ...workers]) {
      if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
    }
    await store?.close();
    await standIn?.close();
    await dropSchemas([schema, `${schema}_jobs`]);
    rmSync(dir, { recursive: true, force: true });
  });

  /** A call to serve process `at` as `user`. */
  const api = (at: number, user: 'ann' | 'bob', path: string, init: RequestInit & { json?: unknown } = {}) =>
    apiCall((serves[at] as { base: string }).base, path, {
      ...init,
      headers: { authorization: `Bearer ${tokens[user]}`, ...(init.headers as Record<string, string>) },
    });

  /** Opens a session of `user` on serve `at` and sends `text` there. */
  async function send(at: number, user: 'ann' | 'bob', text: string) {
    const { id } = await json<{ id: string }>(await api(at, user, '/api/sessions', { json: {} }));
    const started = await json<Started>(
      await api(at, user, `/api/sessions/${id}/messages`, { json: { text } }),
    );
    return { sessionId: id, ...started };
  }

  /** The whole of a turn's stream as read through serve `at` (it ends after the turn's end). */
  async function streamed(at: number, user: 'ann' | 'bob', started: Started) {
    const response = await api(at, user, started.events);
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    return events.filter((e) => e.event === 'turn-end');
  }

  const turnEnds = async (turnId: string) =>
    (await store.listTurnEvents({ turnId })).filter((e) => e.type === 'turn-end').length;

  /** Waits for the pending approval of `turnId`, seen by `user` through serve `at`. */
  async function pendingApproval(at: number, user: 'ann' | 'bob', sessionId: string, turnId: string) {
    let approvalId: string | undefined;
    await until(async () => {
      const { approvals } = await json<{ approvals: { id: string; turnId: string }[] }>(
        await api(at, user, `/api/approvals?sessionId=${sessionId}`),
      );
      approvalId = approvals.find((a) => a.turnId === turnId)?.id;
      return approvalId !== undefined;
    }, 'the approval');
    return approvalId as string;
  }

  /** SIGKILLs the worker process `pid` and starts another in its place. */
  async function killWorker(pid: number) {
    const victim = workers.find((w) => w.proc.pid === pid);
    expect(victim, `worker ${pid} is one of ${workers.map((w) => w.proc.pid)}`).toBeDefined();
    (victim as ToolseamProcess).proc.kill('SIGKILL');
    await (victim as ToolseamProcess).done;
    workers.splice(workers.indexOf(victim as ToolseamProcess), 1);
    await addWorker();
  }

  it(`${SESSIONS} sessions send turns at once through both serve processes: each ends once, in the store and in its stream`, async () => {
    const turns = await Promise.all(
      Array.from({ length: SESSIONS }, async (_, i) => {
        const at = i % 2;
        const user = i % 4 < 2 ? 'ann' : 'bob';
        const started = await send(at, user, `hello ${i}`);
        return { ...started, ends: await streamed(at, user, started) };
      }),
    );
    for (const t of turns) {
      expect(
        t.ends.map((e) => e.data),
        t.turnId,
      ).toEqual([expect.objectContaining({ status: 'done' })]);
      expect((await store.getTurn(t.turnId))?.status).toBe('done');
      expect(await turnEnds(t.turnId)).toBe(1);
    }
    // Each user sees their own sessions only.
    const { sessions } = await json<{ sessions: { id: string }[] }>(await api(1, 'bob', '/api/sessions'));
    const bobs = turns.filter((_, i) => i % 4 >= 2).map((t) => t.sessionId);
    expect(sessions.map((s) => s.id).sort()).toEqual([...bobs].sort());
  });

  it('a worker killed while its turn waits for an approval: answered through the other serve process, the turn ends once on another worker', async () => {
    const started = await send(0, 'ann', 'careful-1');
    // The model answers after a pause: meanwhile the store names the worker that holds the turn.
    let holder: number | undefined;
    await until(async () => {
      const owner = (await store.getTurn(started.turnId))?.owner ?? '';
      holder = Number(/:(\d+)\//.exec(owner)?.[1] ?? Number.NaN);
      return !Number.isNaN(holder);
    }, 'a worker to take the turn');
    const stream = streamed(0, 'ann', started);
    const approvalId = await pendingApproval(1, 'ann', started.sessionId, started.turnId);
    await killWorker(holder as number);

    // Bob cannot answer it, through either process.
    for (const at of [0, 1]) {
      const crossed = await api(at, 'bob', `/api/approvals/${approvalId}`, { json: { decision: 'approve' } });
      expect(crossed.status).toBe(404);
    }
    await json(await api(1, 'ann', `/api/approvals/${approvalId}`, { json: { decision: 'approve' } }));
    expect((await stream).map((e) => e.data)).toEqual([expect.objectContaining({ status: 'done' })]);
    expect(await turnEnds(started.turnId)).toBe(1);
    const runs = logLines(log).filter((l) => l.tag === 'careful-1');
    expect(runs.map((l) => l.kind)).toEqual(['start', 'done']);
    expect(runs[0]?.pid).not.toBe(holder);
    const calls = await store.listToolCalls({ turnId: started.turnId });
    expect(calls.map((c) => c.status)).toEqual(['done']);
  });

  it('a worker killed while it runs a tool: another takes the turn over, tells the model the call was cut short, runs nothing twice', async () => {
    const started = await send(1, 'bob', 'slow-1');
    const stream = streamed(1, 'bob', started);
    const approvalId = await pendingApproval(0, 'bob', started.sessionId, started.turnId);
    await json(await api(0, 'bob', `/api/approvals/${approvalId}`, { json: { decision: 'approve' } }));
    await until(() => logLines(log).some((l) => l.tag === 'slow-1'), 'the slow step to start');
    const runner = logLines(log).find((l) => l.tag === 'slow-1')?.pid as number;
    await killWorker(runner);

    expect((await stream).map((e) => e.data)).toEqual([expect.objectContaining({ status: 'done' })]);
    expect((await store.getTurn(started.turnId))?.status).toBe('done');
    expect(await turnEnds(started.turnId)).toBe(1);
    expect(logLines(log).filter((l) => l.tag === 'slow-1')).toEqual([
      { kind: 'start', tag: 'slow-1', pid: runner },
    ]);
    const calls = await store.listToolCalls({ turnId: started.turnId });
    expect(calls.map((c) => c.status)).toEqual(['failed']);
    const told = standIn.requests.some(
      (r) =>
        r.lastUserMessage === 'slow-1' &&
        r.messages.some((m) => m.role === 'tool' && m.content.includes('whether it finished is unknown')),
    );
    expect(told).toBe(true);
  });

  it('a turn parked for its approval is stopped through the other serve process: it ends once as stopped, its step never runs', async () => {
    const started = await send(0, 'ann', 'careful-2');
    const stream = streamed(0, 'ann', started);
    await pendingApproval(1, 'ann', started.sessionId, started.turnId);
    await until(
      async () => (await store.getTurn(started.turnId))?.owner === 'queued',
      'the turn to be parked',
    );
    const stop = await api(1, 'ann', `/api/sessions/${started.sessionId}/stop`, { method: 'POST' });
    expect(stop.status).toBe(202);
    expect((await stream).map((e) => e.data)).toEqual([expect.objectContaining({ status: 'stopped' })]);
    expect((await store.getTurn(started.turnId))?.status).toBe('stopped');
    expect(await turnEnds(started.turnId)).toBe(1);
    expect(logLines(log).filter((l) => l.tag === 'careful-2')).toEqual([]);
    expect(await store.listApprovals({ status: 'pending' })).toEqual([]);
  });

  it('a worker killed in the middle of a 30-leaf batch: the batch ends, every leaf ran in one turn on more than one worker, the turn ends once', async () => {
    const started = await send(1, 'bob', 'batch of thirty');
    const stream = streamed(1, 'bob', started);
    // Approve what asks (the batch call may), until some leaves have answered.
    const leavesAsked = () => standIn.requests.filter((r) => /Task: leaf-/.test(r.lastUserMessage)).length;
    await until(async () => {
      const { approvals } = await json<{ approvals: { id: string; turnId: string }[] }>(
        await api(0, 'bob', `/api/approvals?sessionId=${started.sessionId}`),
      );
      for (const a of approvals)
        await api(0, 'bob', `/api/approvals/${a.id}`, { json: { decision: 'approve' } });
      return leavesAsked() >= 5;
    }, 'five leaves to be asked');
    // The parent turn is parked while its leaves run as jobs: no worker holds it.
    expect((await store.getTurn(started.turnId))?.owner).toBe('queued');
    // A worker running one of the leaves is killed in the middle: some leaves not asked yet.
    let holder = 0;
    await until(async () => {
      const [owner] = await leafOwners(started.sessionId, ['running', 'waiting_approval']);
      holder = Number(/:(\d+)\//.exec(owner ?? '')?.[1]);
      return holder > 0;
    }, 'a leaf running on a worker');
    expect(leavesAsked()).toBeLessThan(LEAVES);
    await killWorker(holder);

    expect((await stream).map((e) => e.data)).toEqual([expect.objectContaining({ status: 'done' })]);
    expect(await turnEnds(started.turnId)).toBe(1);
    const batches = await store.listBatches({ parentSessionId: started.sessionId });
    expect(batches.map((b) => b.status)).toEqual(['done', 'done']);
    const leaves = batches.flatMap((b) => b.leaves);
    expect(leaves).toHaveLength(LEAVES);
    for (const l of leaves) {
      expect(l.status).toBe('done');
      expect(await store.listTurns({ sessionId: l.childSessionId as string })).toHaveLength(1);
    }
    // The leaves ran on more than one worker (each leaf's turn names the runtime that ended it).
    expect(new Set(await leafOwners(started.sessionId, ['done'])).size).toBeGreaterThan(1);
  });

  /** The owners of the child turns of a session's leaves that are in one of `statuses`. */
  async function leafOwners(sessionId: string, statuses: TurnState[]): Promise<string[]> {
    const owners: string[] = [];
    for (const batch of await store.listBatches({ parentSessionId: sessionId })) {
      for (const leaf of batch.leaves) {
        if (leaf.childSessionId === undefined) continue;
        const turns = await store.listTurns({ sessionId: leaf.childSessionId, status: statuses });
        owners.push(...turns.flatMap((t) => (t.owner ? [t.owner] : [])));
      }
    }
    return owners;
  }
});
