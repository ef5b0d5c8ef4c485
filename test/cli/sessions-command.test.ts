import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enableSubagents } from '../../src/runtime/subagents/index.js';
import { openSessionStore } from '../../src/store/index.js';
import { contract, fromLeaf } from '../runtime/subagents/subagent-fixtures.js';
import { newCall, turnWithCalls } from '../store/store-fixtures.js';
import { collect, type RuntimeHarness, startHarness } from '../support/runtime-harness.js';
import { runToolseam } from './run-toolseam.js';
import { toolseamInProcess } from './toolseam-in-process.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-sessions-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A database in the test folder with one turn waiting on an approval (its process gone). */
async function waitingApproval(expiresAt?: string) {
  const db = join(dir, 't.db');
  const store = openSessionStore({ path: db });
  const { turn } = await turnWithCalls(
    store,
    [newCall('c1', 'write_file', { path: 'a', content: 'x' })],
    'Write a',
  );
  const approval = await store.requestApproval({
    turnId: turn.id,
    callId: 'c1',
    risk: 'caution',
    meaning: 'Writes a',
    ...(expiresAt ? { expiresAt } : {}),
  });
  await store.close();
  return { db, turn, approval };
}

describe('toolseam sessions', () => {
  it("shows a host's session id with control characters as escapes, in every list that names it", async () => {
    const db = join(dir, 't.db');
    const store = openSessionStore({ path: db });
    // A host may pick any text as a session id: this one clears the screen and starts a fake row.
    const id = 'chat\u001b[2J\n  t-fake  resume: toolseam resume t-fake';
    const session = await store.createSession({ id });
    const turn = await store.startTurn({ sessionId: session.id, userText: 'Write a' });
    await store.recordModelReply(turn.id, {
      content: '',
      calls: [newCall('c1', 'write_file', { path: 'a' })],
    });
    await store.requestApproval({ turnId: turn.id, callId: 'c1', risk: 'caution', meaning: 'Writes a' });
    await store.close();
    const shown = 'chat\\u001b[2J\\u000a  t-fake';
    for (const args of [['sessions'], ['resume']]) {
      const r = await toolseamInProcess([...args, '--db', db], dir);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('\u001b');
      expect(r.stdout).not.toMatch(/^ {2}t-fake/m);
      expect(r.stdout).toContain(shown);
    }
  });

  it('shows a title or turn text with line breaks on one line, so every row stays a row', async () => {
    const db = join(dir, 't.db');
    const store = openSessionStore({ path: db });
    const { session } = await turnWithCalls(store, [], 'first line\n\nsecond\tline\r\nthird line');
    await store.updateSession(session.id, { title: 'a title\nover two lines' });
    await store.close();
    const r = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}\S+ {2}\S+ {2}a title over two lines$/m);
    expect(r.stdout).toMatch(
      /^ {2}\S+ {2}session \S+ {2}"first line second line third line" {2}\(running\)$/m,
    );
    expect(r.stdout).not.toMatch(/^(second|third|over)/m);
  });

  it('refuses a database path that does not exist, creating nothing (sessions and approve)', async () => {
    const typo = join(dir, 'no-such-folder', 'sesions.db');
    for (const args of [['sessions'], ['approve', 'ap-1', 'yes']]) {
      const r = await toolseamInProcess([...args, '--db', typo], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`there is no session database at ${typo}`);
    }
    expect(existsSync(join(dir, 'no-such-folder'))).toBe(false);
  });

  it('shows how to resume an interrupted turn with the command that resumes it', async () => {
    const db = join(dir, 't.db');
    const store = openSessionStore({ path: db });
    // No owner: the process that ran it is gone, and the turn has no approval to answer.
    const { turn } = await turnWithCalls(store, [], 'Tidy my notes');
    await store.close();
    const r = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('turns interrupted when their process stopped');
    expect(r.stdout).toContain(`toolseam resume ${turn.id}`);
    expect(r.stdout).not.toContain('toolseam approve <approval id>');
  });

  it('an approval past its deadline is not listed as waiting, and approve refuses it (the call never runs)', async () => {
    const { db, turn, approval } = await waitingApproval(new Date(Date.now() - 1000).toISOString());
    const listed = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(listed.stdout).not.toContain(approval.id);
    expect(listed.stdout).toContain(`toolseam resume ${turn.id}`);
    const r = await toolseamInProcess(['approve', approval.id, 'yes', '--db', db], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Approval ${approval.id} expired before it was answered`);
    expect(r.stderr).toContain(`toolseam resume ${turn.id}`);
    const after = openSessionStore({ path: db });
    expect((await after.getApproval(approval.id))?.status).toBe('expired');
    expect((await after.getToolCall(turn.id, 'c1'))?.status).toBe('pending');
    await after.close();
  });

  it('lists a turn whose owner went silent long ago as interrupted, even one from another host', async () => {
    const db = join(dir, 't.db');
    const past = Date.now() - 60 * 60_000;
    const store = openSessionStore({ path: db, now: () => past });
    const session = await store.createSession({ provider: 'openai', model: 'gpt-test' });
    // A container that was replaced: its host name is gone for good, and it never said it stopped.
    const turn = await store.startTurn({
      sessionId: session.id,
      userText: 'Sort my inbox',
      owner: 'old-container-3f2a:7',
    });
    await store.close();
    const r = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(r.stdout).toContain('turns interrupted when their process stopped');
    expect(r.stdout).toContain(`toolseam resume ${turn.id}`);
  });

  it('a database this user cannot write gets one line naming the file and what to do, not a stack trace', async () => {
    const { db, approval } = await waitingApproval();
    // As root, permissions bind only another user: run the command as "nobody" then.
    const root = process.getuid?.() === 0;
    for (const f of ['', '-wal', '-shm']) if (existsSync(db + f)) chmodSync(db + f, 0o444);
    chmodSync(dir, root ? 0o755 : 0o555);
    try {
      const r = await runToolseam(
        ['approve', approval.id, 'yes', '--db', db],
        dir,
        {},
        root ? { uid: 65534, gid: 65534 } : undefined,
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^toolseam approve: The session store ${db} failed \\(SQLITE_READONLY[A-Z_]*\\): this user cannot write it`,
        ),
      );
      expect(r.stderr).not.toContain('    at ');
    } finally {
      chmodSync(dir, 0o755);
    }
    const after = openSessionStore({ path: db });
    expect((await after.getApproval(approval.id))?.status).toBe('pending');
    await after.close();
  });

  it('approve with no model to resume with refuses before it answers; resume lists and checks ids without one', async () => {
    const noKeys = {
      OPENAI_API_KEY: undefined,
      ANTHROPIC_API_KEY: undefined,
      OPENROUTER_API_KEY: undefined,
      GEMINI_API_KEY: undefined,
      MISTRAL_API_KEY: undefined,
    };
    const { db, turn, approval } = await waitingApproval();
    const approve = await toolseamInProcess(['approve', approval.id, 'yes', '--db', db], dir, noKeys);
    expect(approve.code).toBe(2);
    expect(approve.stderr).toContain('no model is configured');
    const listed = await toolseamInProcess(['resume', '--db', db], dir, noKeys);
    expect(listed).toMatchObject({ code: 0 });
    expect(listed.stdout).toContain(turn.id);
    const unknown = await toolseamInProcess(['resume', 't-nope', '--db', db], dir, noKeys);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('there is no turn t-nope');
    const typo = await toolseamInProcess(['resume', '--db', join(dir, 'tt.db')], dir, noKeys);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('there is no session database at');
    expect(existsSync(join(dir, 'tt.db'))).toBe(false);
    const after = openSessionStore({ path: db });
    expect((await after.getApproval(approval.id))?.status).toBe('pending');
    await after.close();
  });

  it('lists the 50 most recent sessions unless --limit says how many (0 for all), and refuses a bad count', async () => {
    const db = join(dir, 't.db');
    const store = openSessionStore({ path: db });
    for (let i = 0; i < 53; i += 1) await store.createSession({ title: `chat ${i}` });
    await store.close();
    const count = (out: string) => out.split('\n').filter((l) => / {2}s-\S+ {2}/.test(l)).length;
    expect(count((await toolseamInProcess(['sessions', '--db', db], dir)).stdout)).toBe(50);
    expect(count((await toolseamInProcess(['sessions', '--db', db, '--limit', '0'], dir)).stdout)).toBe(53);
    expect(count((await toolseamInProcess(['sessions', '--db', db, '--limit', '3'], dir)).stdout)).toBe(3);
    const bad = await toolseamInProcess(['sessions', '--db', db, '--limit', 'many'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit takes how many sessions to list');
    for (const args of [['--limit', '-1'], ['--limit=-1']]) {
      const negative = await toolseamInProcess(['sessions', '--db', db, ...args], dir);
      expect(negative.code).toBe(2);
      expect(negative.stderr).toBe(
        'toolseam sessions: --limit takes how many sessions to list (0 for all), not "-1".\n',
      );
    }
  });

  it('--json lists the unfinished subagent batches the text lists, and no finished one', async () => {
    const db = join(dir, 't.db');
    const store = openSessionStore({ path: db });
    const { session, turn } = await turnWithCalls(store, [], 'Sweep my inbox and calendar');
    const leaves = [{ title: 'Inbox', contract: { task: 'sweep the inbox' } }];
    const open = await store.createBatch({
      parentSessionId: session.id,
      turnId: turn.id,
      title: 'Morning',
      leaves,
    });
    const ended = await store.createBatch({
      parentSessionId: session.id,
      turnId: turn.id,
      title: 'Evening',
      leaves,
    });
    await store.finishBatch(ended.id, 'failed');
    await store.close();
    const text = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(text.stdout).toContain(`${open.id}  Morning  (1 of 1 leaves left; parent turn ${turn.id})`);
    const listed = JSON.parse((await toolseamInProcess(['sessions', '--db', db, '--json'], dir)).stdout);
    expect(listed.unfinishedBatches).toHaveLength(1);
    expect(listed.unfinishedBatches[0]).toMatchObject({
      id: open.id,
      title: 'Morning',
      turnId: turn.id,
      leaves: [{ title: 'Inbox', status: 'queued' }],
    });
  });

  it("lists a subagent leaf's interrupted turn only through its parent turn, which resumes it", async () => {
    const db = join(dir, 't.db');
    const store = openSessionStore({ path: db });
    const { session, turn } = await turnWithCalls(store, [], 'Sweep my inbox and calendar');
    const batch = await store.createBatch({
      parentSessionId: session.id,
      turnId: turn.id,
      callId: 'c1',
      title: 'Morning',
      leaves: [{ title: 'Inbox', contract: { task: 'sweep the inbox' } }],
    });
    const child = await store.createSession({ title: 'leaf: Inbox' });
    await store.claimLeaf(batch.leaves[0]?.id as string, child.id);
    const leafTurn = await store.startTurn({ sessionId: child.id, userText: 'sweep the inbox' });
    await store.close();
    const r = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`toolseam resume ${turn.id}`);
    expect(r.stdout).not.toContain(leafTurn.id);
  });
});

describe('toolseam sessions after a subagent batch', () => {
  let h: RuntimeHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** Runs a real two-leaf batch from the session "parent", and a second session a person started. */
  async function batchRun(): Promise<{ db: string; children: string[] }> {
    const tasks = ['Read the inbox', 'Read the calendar'];
    h = await startHarness({
      script: [
        {
          match: { lastUserIncludes: 'morning round' },
          toolCalls: [
            { name: 'subagent_run', arguments: { tasks: tasks.map((t, i) => contract(t, `Leaf ${i}`)) } },
          ],
        },
        ...tasks.map((t) => ({ when: fromLeaf(t), text: `${t}: nothing new` })),
        { match: { lastUserIncludes: 'morning round' }, echo: 'lastToolResult' as const },
        { match: { lastUserIncludes: 'hello' }, text: 'hi' },
      ],
    });
    enableSubagents(h.runtime);
    await collect(await (await h.runtime.session('parent')).send('do the morning round'));
    await collect(await (await h.runtime.session('other')).send('hello'));
    const [batch] = await h.runtime.options.store.listBatches({ parentSessionId: 'parent' });
    const children = (batch?.leaves ?? []).map((l) => l.childSessionId as string);
    expect(children).toHaveLength(2);
    return { db: h.dbPath, children };
  }

  it('lists the sessions a person started, each with how many subagent sessions it ran', async () => {
    const { db, children } = await batchRun();
    const r = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}parent {2}\S+ {2}do the morning round {2}\(\+2 subagent sessions\)$/m);
    expect(r.stdout).toMatch(/^ {2}other {2}\S+ {2}hello$/m);
    for (const child of children) expect(r.stdout).not.toContain(child);
    // --limit counts the sessions listed, not the children left out
    const one = await toolseamInProcess(['sessions', '--db', db, '--limit', '1'], dir);
    expect(one.stdout).toMatch(/^ {2}other {2}/m);
    expect(one.stdout).not.toMatch(/^ {2}parent {2}/m);
  });

  it('--all lists the subagent sessions too, each under the session that ran it', async () => {
    const { db, children } = await batchRun();
    const r = await toolseamInProcess(['sessions', '--db', db, '--all'], dir);
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n');
    const parentRow = rows.findIndex((l) => l.startsWith('  parent  '));
    expect(parentRow).toBeGreaterThan(-1);
    const under = rows.slice(parentRow + 1, parentRow + 3).map((l) => l.trim().split(/\s+/)[1]);
    expect(under.sort()).toEqual([...children].sort());
    expect(rows[parentRow + 1]).toMatch(/^ {4}↳ \S+ {2}\S+ {2}\S/);
  });

  it('--json lists the top-level sessions with their child counts; with --all the children with their parent', async () => {
    const { db, children } = await batchRun();
    const top = JSON.parse((await toolseamInProcess(['sessions', '--db', db, '--json'], dir)).stdout);
    expect(top.sessions.map((s: { id: string }) => s.id).sort()).toEqual(['other', 'parent']);
    expect(top.sessions.find((s: { id: string }) => s.id === 'parent')).toMatchObject({ childSessions: 2 });
    const all = JSON.parse(
      (await toolseamInProcess(['sessions', '--db', db, '--json', '--all'], dir)).stdout,
    );
    const listed = all.sessions.map((s: { id: string; parentSessionId?: string }) => [
      s.id,
      s.parentSessionId,
    ]);
    expect(listed).toHaveLength(4);
    for (const child of children) expect(listed).toContainEqual([child, 'parent']);
  });
});

describe('toolseam sessions and long sessions', () => {
  it("lists a session's compactions (text and --json), and none for a session never summarized", async () => {
    const db = join(dir, 't.db');
    const store = openSessionStore({ path: db });
    await store.createSession({ id: 'long' });
    await store.createSession({ id: 'short' });
    const turn = await store.startTurn({ sessionId: 'long', userText: 'hello' });
    await store.addCompaction({
      sessionId: 'long',
      turnId: turn.id,
      throughSeq: 1,
      summary: 'The person said hello.',
      messagesCovered: 12,
      tokensBefore: 9800,
      tokensAfter: 3100,
      reason: 'threshold',
    });
    await store.close();
    const text = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('sessions summarized to fit the context window:');
    expect(text.stdout).toMatch(
      /long {2}summarized once; .*12 messages stand as a summary, about 9800 → 3100 tokens/,
    );
    expect(text.stdout).not.toMatch(/short {2}summarized/);
    const json = await toolseamInProcess(['sessions', '--db', db, '--json'], dir);
    const listed = JSON.parse(json.stdout) as { compactions: Record<string, unknown[]> };
    expect(Object.keys(listed.compactions)).toEqual(['long']);
    expect(listed.compactions['long']).toMatchObject([
      { summary: 'The person said hello.', reason: 'threshold' },
    ]);
  });
});
