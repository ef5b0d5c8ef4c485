import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { commandScopeOf, newCall, turnWithCalls } from '../store/store-fixtures.js';
import { chatKilledWhileWaiting } from './killed-chat.js';
import { runToolseam } from './run-toolseam.js';
import { spawnToolseamWithoutStderr, until } from './spawn-toolseam.js';
import { toolseamInProcess, toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir: string;
const standIns: StandIn[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-approve-'));
});
afterEach(async () => {
  await Promise.all(standIns.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

const bash = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] });

describe('toolseam approve ID always', () => {
  it('says what it granted, and a later command inside it runs unasked in that session', async () => {
    const a = await startStandIn({
      family: 'openai',
      script: [bash('ls'), { text: 'listed' }, bash('ls -a'), { text: 'listed again' }],
    });
    standIns.push(a);
    const db = join(dir, 't.db');
    const { id } = await chatKilledWhileWaiting(a, db, dir);
    const approved = await toolseamInProcess(['approve', id, 'always', '--db', db], dir);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('listed');
    const store = openSessionStore({ path: db });
    const sessionId = (await store.getApproval(id))?.sessionId as string;
    const [grant] = await store.listGrants({ sessionId });
    await store.close();
    expect(grant).toMatchObject({ tool: 'bash', scope: { kind: 'command', words: ['ls'] } });
    expect(approved.stderr).toContain(
      `standing permission ${grant?.id}: run \`ls …\` (any further arguments) in this session without asking ` +
        `(\`toolseam grants --revoke ${grant?.id}\` withdraws it)`,
    );
    // The next message in that session: `ls -a` is inside what was granted, so nobody is asked.
    const next = await toolseamInProcessWithoutKeys(
      [
        'chat',
        '-m',
        'list again',
        '--session',
        sessionId,
        '--base-url',
        a.baseURL,
        '--model',
        'demo',
        '--db',
        db,
      ],
      dir,
    );
    expect(next.code).toBe(0);
    expect(next.stdout + next.stderr).not.toContain('wants to run');
    expect(next.stdout).toContain('listed again');
  }, 120_000);
});

describe('toolseam approve of a turn that asks again', () => {
  it('shows the next question whole on stdout (stderr discarded), to be answered from another terminal', async () => {
    const a = await startStandIn({
      family: 'openai',
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'one' } }] },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'two' } }] },
        { echo: 'lastToolResult' },
      ],
    });
    standIns.push(a);
    const db = join(dir, 't.db');
    const { id } = await chatKilledWhileWaiting(a, db, dir);
    const approve = spawnToolseamWithoutStderr(['approve', id, 'yes', '--db', db], dir);
    approve.proc.stdin.end();
    onTestFinished(() => {
      approve.proc.kill('SIGKILL');
    });
    await until('the next question', () => /approve ap-\S+ yes\|no\|always/.test(approve.stdout()));
    const shown = approve.stdout();
    expect(shown).toContain('? write_file wants to run');
    expect(shown).toContain('"path": "b.txt"');
    const next = /approval id: (ap-\S+)/.exec(shown)?.[1] as string;
    expect(next).not.toBe(id);
    expect(shown).toContain(
      `waiting: answer it with \`toolseam approve ${next} yes|no|always\` from another terminal`,
    );
    const refused = await toolseamInProcess(['approve', next, 'no', '--db', db], dir);
    expect(refused.code).toBe(0);
    expect((await approve.done).code).toBe(0);
    expect(existsSync(join(dir, 'a.txt'))).toBe(true);
    expect(existsSync(join(dir, 'b.txt'))).toBe(false);
  }, 120_000);
});

describe('toolseam approve ID yes for a tool switched off since the question', () => {
  it('is refused, saying how to switch it back on, and the approval still waits', async () => {
    const a = await startStandIn({ family: 'openai', script: [bash('ls'), { text: 'listed' }] });
    standIns.push(a);
    const db = join(dir, 't.db');
    const { id } = await chatKilledWhileWaiting(a, db, dir);
    const off = await toolseamInProcess(['tools', '--db', db, '--off', 'bash'], dir);
    expect(off.code).toBe(0);
    const refused = await toolseamInProcess(['approve', id, 'yes', '--db', db], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('it was switched off (`toolseam tools --on bash` switches it back on)');
    const store = openSessionStore({ path: db });
    expect((await store.getApproval(id))?.status).toBe('pending');
    await store.close();
  }, 120_000);
});

describe('a question an earlier version asked (no scope shown)', () => {
  it('is listed as taking yes or no, and always is refused in one line, answering nothing', async () => {
    const db = join(dir, 'old.db');
    copyFileSync(join(import.meta.dirname, '..', 'store', 'fixtures', 'release-0.1.0-v12.db'), db);
    // Its waiting approval was asked with a 5-minute deadline when the fixture was written: moved past now.
    const old = new Database(db);
    old.prepare(`UPDATE approvals SET expires_at = ? WHERE status = 'pending'`).run(Date.now() + 3_600_000);
    old.close();
    const listed = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('always: not offered (an earlier version of toolseam asked this');
    const id = /answer: toolseam approve (ap-\S+) yes\|no\n/.exec(listed.stdout)?.[1] as string;
    expect(id).toMatch(/^ap-/);
    const always = await toolseamInProcess(['approve', id, 'always', '--db', db], dir);
    expect(always.code).toBe(2);
    expect(always.stderr.trim().split('\n')).toHaveLength(1);
    expect(always.stderr).toContain('takes yes or no only');
    const store = openSessionStore({ path: db });
    expect((await store.getApproval(id))?.status).toBe('pending');
    await store.close();
  }, 120_000);
});

describe('an approval answered twice at once', () => {
  /** A turn waiting on a write_file approval, its process gone. */
  async function waitingTurn() {
    const db = join(dir, 't.db');
    const store = openSessionStore({ path: db });
    const { turn } = await turnWithCalls(store, [
      newCall('c1', 'write_file', { path: 'a.txt', content: 'x' }),
    ]);
    const always = commandScopeOf('ls');
    const approval = await store.requestApproval({
      turnId: turn.id,
      callId: 'c1',
      risk: 'caution',
      meaning: 'm',
      always,
    });
    return { db, store, turn, approval };
  }

  it('the losing answer says which answer won and that its process goes on with the turn, not to resume it', async () => {
    const { db, store, turn, approval } = await waitingTurn();
    // The winning `toolseam approve` is still running, about to take the turn over.
    const winner = spawn('sleep', ['120'], { stdio: 'ignore' });
    onTestFinished(() => {
      winner.kill('SIGKILL');
    });
    const answeredBy = `toolseam approve:${hostname()}:${winner.pid}`;
    await store.answerApproval(approval.id, { kind: 'approve' }, { digest: approval.digest, answeredBy });
    await store.close();

    const same = await toolseamInProcess(['approve', approval.id, 'yes', '--db', db], dir);
    expect(same.code).toBe(0);
    expect(same.stderr).toContain(
      `approval ${approval.id} was already approved by another \`toolseam approve\` (process ${winner.pid}) at `,
    );
    expect(same.stderr).toContain('the same answer, so nothing more was recorded.');
    expect(same.stderr).toContain(`That process resumes the turn (process ${winner.pid})`);
    expect(same.stderr).not.toContain('toolseam resume');

    const other = await toolseamInProcess(['approve', approval.id, 'no', '--db', db], dir);
    expect(other.code).toBe(2);
    expect(other.stderr.trim().split('\n')).toHaveLength(1);
    expect(other.stderr).toContain('before this answer, which was not recorded.');
    expect(other.stderr).toContain('That process resumes the turn');
    expect(other.stderr).not.toContain('toolseam resume');

    // Once that process is gone with the turn still unfinished, resuming it is the way on.
    winner.kill('SIGKILL');
    await new Promise((resolve) => winner.once('exit', resolve));
    const later = await toolseamInProcess(['approve', approval.id, 'yes', '--db', db], dir);
    expect(later.code).toBe(0);
    expect(later.stderr).toContain(`No process is running its turn: \`toolseam resume ${turn.id}\``);
  }, 120_000);

  it('two `toolseam approve` at once: one resumes the turn, the other says so and advises nothing else', async () => {
    const a = await startStandIn({
      family: 'openai',
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'buy milk' } }] },
        { text: 'Saved.' },
      ],
    });
    standIns.push(a);
    const db = join(dir, 't.db');
    const { id } = await chatKilledWhileWaiting(a, db, dir);
    const [first, second] = await Promise.all([
      runToolseam(['approve', id, 'yes', '--db', db], dir),
      runToolseam(['approve', id, 'yes', '--db', db], dir),
    ]);
    expect([first.code, second.code]).toEqual([0, 0]);
    const resumed = [first, second].filter((r) => r.stdout.includes('Saved.'));
    expect(resumed).toHaveLength(1);
    const loser = first === resumed[0] ? second : first;
    expect(loser.stderr).toContain(`approval ${id} was already approved by another \`toolseam approve\``);
    expect(loser.stderr).not.toContain('toolseam resume');
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
  }, 120_000);
});
