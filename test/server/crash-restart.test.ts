import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { readEvents } from '../../src/testing/event-stream-reader.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { spawnToolseam, until } from '../cli/spawn-toolseam.js';
import { apiCall } from './served.js';

let dir: string;
let standIn: StandIn | undefined;
const children: ReturnType<typeof spawnToolseam>[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-serve-crash-'));
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `toolseam serve` on a free port and returns it with its base URL once it listens. */
async function serve(db: string) {
  const child = spawnToolseam(
    ['serve', '--port', '0', '--base-url', (standIn as StandIn).baseURL, '--model', 'demo', '--db', db],
    dir,
  );
  children.push(child);
  await until(
    'the server to listen',
    () => /toolseam serve: http:\/\/\S+/.test(child.stdout()) || child.proc.exitCode !== null,
  );
  const url = /toolseam serve: (http:\/\/\S+?)\/?\n/.exec(child.stdout())?.[1];
  if (url === undefined) throw new Error(`serve did not start: ${child.stderr()}`);
  return { child, base: url };
}

const write = {
  toolCalls: [{ name: 'write_file', arguments: { path: 'note.txt', content: 'written once' } }],
};

/** A session with a turn waiting for the approval of write_file. */
async function turnWaiting(base: string) {
  const session = (await (await apiCall(base, '/api/sessions', { json: {} })).json()) as { id: string };
  const started = (await (
    await apiCall(base, `/api/sessions/${session.id}/messages`, { json: { text: 'save a note' } })
  ).json()) as {
    turnId: string;
  };
  let approvals: { id: string; turnId: string }[] = [];
  while (approvals.length === 0) {
    approvals = ((await (await apiCall(base, '/api/approvals')).json()) as { approvals: typeof approvals })
      .approvals;
  }
  return { sessionId: session.id, turnId: started.turnId, approvalId: (approvals[0] as { id: string }).id };
}

describe('toolseam serve killed with an approval waiting', () => {
  it('takes the turn over on the next start: the approval answered through the API runs the tool once and the turn ends', async () => {
    standIn = await startStandIn({ family: 'openai', script: [write, { echo: 'lastToolResult' }] });
    const db = join(dir, 't.db');
    const first = await serve(db);
    const { sessionId, turnId, approvalId } = await turnWaiting(first.base);
    first.child.proc.kill('SIGKILL');
    await first.child.done;

    const second = await serve(db);
    await until('the start to say it resumed the turn', () => second.child.stdout().includes('resumed'));
    expect(second.child.stdout()).toContain(`resumed 1 unfinished turn(s): ${turnId}`);
    const pending = (await (await apiCall(second.base, `/api/approvals?sessionId=${sessionId}`)).json()) as {
      approvals: { id: string }[];
    };
    expect(pending.approvals.map((a) => a.id)).toEqual([approvalId]);
    const stream = await apiCall(second.base, `/api/sessions/${sessionId}/events?turn=${turnId}`);
    const answered = await apiCall(second.base, `/api/approvals/${approvalId}`, {
      json: { decision: 'approve' },
    });
    expect(answered.status).toBe(200);
    const events = await readEvents(stream, (e) => e.event === 'turn-end');
    expect(events.at(-1)?.data).toMatchObject({ status: 'done', turnId });
    const ends = events.filter((e) => e.event === 'tool-call-end');
    expect(ends.map((e) => [e.data.tool, e.data.isError])).toEqual([['write_file', false]]);
    expect(readFileSync(join(dir, 'note.txt'), 'utf8')).toBe('written once');
    // the stream of the first process's events and the second's is one sequence, ids rising
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(events[0]?.event).toBe('turn-start');

    second.child.proc.kill('SIGTERM');
    expect((await second.child.done).code).toBe(0);
  });

  it('on SIGTERM leaves a waiting approval pending in the store and exits at once', async () => {
    standIn = await startStandIn({ family: 'openai', script: [write, { echo: 'lastToolResult' }] });
    const db = join(dir, 't.db');
    const first = await serve(db);
    const { approvalId, turnId } = await turnWaiting(first.base);
    first.child.proc.kill('SIGTERM');
    const exit = await first.child.done;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toContain('stopping');
    const store = openSessionStore({ path: db });
    try {
      expect((await store.getApproval(approvalId))?.status).toBe('pending');
      expect((await store.getTurn(turnId))?.status).toBe('waiting_approval');
    } finally {
      await store.close();
    }
  });
});
