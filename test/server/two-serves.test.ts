import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/testing/event-stream-reader.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { dropSchemas, freshSchemaName } from '../store/pg-fixtures.js';
import { startServeProcess, type ToolseamProcess } from '../support/toolseam-processes.js';
import { apiCall } from './served.js';

const PG = process.env.TOOLSEAM_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

let dir: string;
let standIn: StandIn | undefined;
const children: ToolseamProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-two-serves-'));
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `toolseam serve` on `db` with its wake-ups over PostgreSQL, reading the store besides them only every
 * 10 minutes: within this test, only a signal can bring another process's events or answer.
 */
async function serve(db: string) {
  const started = await startServeProcess(
    ['--base-url', (standIn as StandIn).baseURL, '--model', 'demo', '--db', db],
    dir,
    // A PostgreSQL store carries the signals itself; beside a SQLite file they are named.
    { TOOLSEAM_SIGNALS: db.startsWith('postgres') ? '' : PG, TOOLSEAM_STORE_POLL_MS: '600000' },
  );
  children.push(started.child);
  return started;
}

const json = async <T>(response: Response): Promise<T> => {
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as T;
};

const write = {
  toolCalls: [{ name: 'write_file', arguments: { path: 'note.txt', content: 'written once' } }],
};

const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

describe.each([
  ['a SQLite file, signals through PostgreSQL', () => join(dir, 'shared.db')],
  [
    'a PostgreSQL store, its own signals',
    () => {
      const schema = freshSchemaName();
      schemas.push(schema);
      return `${PG}?schema=${schema}`;
    },
  ],
])('two serve processes on %s', (_name, database) => {
  it('streams on A a turn that runs on B, an approval answered on B wakes the turn waiting on A, a stop asked of A stops a turn on B', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [{ text: 'hello from B' }, write, { echo: 'lastToolResult' }, write],
    });
    const db = database();
    const a = await serve(db);
    const b = await serve(db);

    // A stream on A, a turn on B.
    const { id } = await json<{ id: string }>(await apiCall(a.base, '/api/sessions', { json: {} }));
    const streamOnA = await apiCall(a.base, `/api/sessions/${id}/events`);
    expect(streamOnA.status).toBe(200);
    const onB = await json<{ turnId: string }>(
      await apiCall(b.base, `/api/sessions/${id}/messages`, { json: { text: 'say hello' } }),
    );
    const seen = await readEvents(streamOnA, (e) => e.event === 'turn-end');
    expect(seen.at(-1)?.data).toMatchObject({ status: 'done', turnId: onB.turnId });
    const text = seen
      .filter((e) => e.event === 'text-delta')
      .map((e) => String(e.data.text))
      .join('');
    expect(text).toBe('hello from B');

    // A turn on A waits for an approval; B answers it.
    const onA = await json<{ turnId: string; events: string }>(
      await apiCall(a.base, `/api/sessions/${id}/messages`, { json: { text: 'save a note' } }),
    );
    const streamOnB = await apiCall(b.base, onA.events);
    let approvalId: string | undefined;
    while (approvalId === undefined) {
      const { approvals } = await json<{ approvals: { id: string }[] }>(
        await apiCall(b.base, `/api/approvals?sessionId=${id}`),
      );
      approvalId = approvals[0]?.id;
    }
    await json(await apiCall(b.base, `/api/approvals/${approvalId}`, { json: { decision: 'approve' } }));
    const ended = await readEvents(streamOnB, (e) => e.event === 'turn-end');
    expect(ended.at(-1)?.data).toMatchObject({ status: 'done', turnId: onA.turnId });
    expect(readFileSync(join(dir, 'note.txt'), 'utf8')).toBe('written once');
    // It ran where it waited: A's store record names A's turn done, and B never ran it.
    const turn = await json<{ status: string; runningHere: boolean }>(
      await apiCall(b.base, `/api/turns/${onA.turnId}`),
    );
    expect(turn.status).toBe('done');

    // A stop asked of A reaches the turn B runs.
    const third = await json<{ turnId: string; events: string }>(
      await apiCall(b.base, `/api/sessions/${id}/messages`, { json: { text: 'save it again' } }),
    );
    const streamOfThird = await apiCall(a.base, third.events);
    let waiting = false;
    while (!waiting) {
      const { approvals } = await json<{ approvals: { turnId: string }[] }>(
        await apiCall(a.base, `/api/approvals?sessionId=${id}`),
      );
      waiting = approvals.some((x) => x.turnId === third.turnId);
    }
    const stop = await apiCall(a.base, `/api/sessions/${id}/stop`, { method: 'POST' });
    expect(stop.status).toBe(202);
    expect(await stop.json()).toEqual({ turnId: third.turnId });
    const stopped = await readEvents(streamOfThird, (e) => e.event === 'turn-end');
    expect(stopped.at(-1)?.data).toMatchObject({ status: 'stopped', turnId: third.turnId });

    for (const child of [a.child, b.child]) child.proc.kill('SIGTERM');
    for (const child of [a.child, b.child]) expect((await child.done).code).toBe(0);
  });
});
