import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { startStandIn } from '../../src/testing/index.js';
import { newCall, turnWithCalls } from '../store/store-fixtures.js';
import { toolseamInProcess } from './toolseam-in-process.js';

let dir: string;
let env: Record<string, string>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-db-path-'));
  // The default place, so no test ever touches the user's own sessions.
  env = { TOOLSEAM_DB: join(dir, 'default.db') };
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A pending approval in `db`, asked by a turn this (live) test process owns. */
async function pendingApproval(db: string) {
  const store = openSessionStore({ path: db });
  const { turn } = await turnWithCalls(store, [newCall('c1', 'write_file', { path: 'a.txt', content: 'x' })]);
  await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:${process.pid}` });
  const approval = await store.requestApproval({
    turnId: turn.id,
    callId: 'c1',
    risk: 'caution',
    meaning: 'm',
  });
  await store.close();
  return approval;
}

describe('which database sessions and approve open: --db, else the config\'s "db", else the default', () => {
  it('sessions and approve use "db" from ./toolseam.json, and --db wins over it', async () => {
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ db: 'from-config.db' }));
    const approval = await pendingApproval(join(dir, 'from-config.db'));

    const listed = await toolseamInProcess(['sessions', '--json'], dir, env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).pendingApprovals.map((a: { id: string }) => a.id)).toEqual([
      approval.id,
    ]);

    await openSessionStore({ path: join(dir, 'other.db') }).close();
    const other = await toolseamInProcess(['sessions', '--json', '--db', join(dir, 'other.db')], dir, env);
    expect(JSON.parse(other.stdout).pendingApprovals).toEqual([]);

    const answered = await toolseamInProcess(['approve', approval.id, 'no'], dir, env);
    expect(answered.code).toBe(0);
    expect(answered.stderr).toMatch(/write_file: denied/);
    const store = openSessionStore({ path: join(dir, 'from-config.db') });
    expect((await store.getApproval(approval.id))?.status).toBe('denied');
    await store.close();
  });

  it('sessions reads the config named by --config, and the default place without any', async () => {
    writeFileSync(join(dir, 'elsewhere.json'), JSON.stringify({ db: 'named.db' }));
    const missing = await toolseamInProcess(['sessions', '--config', join(dir, 'elsewhere.json')], dir, env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`there is no session database at ${join(dir, 'named.db')}`);
    await openSessionStore({ path: join(dir, 'named.db') }).close();
    const named = await toolseamInProcess(['sessions', '--config', join(dir, 'elsewhere.json')], dir, env);
    expect(named.stdout).toContain(`sessions (${join(dir, 'named.db')})`);
    await openSessionStore({ path: join(dir, 'default.db') }).close();
    const plain = await toolseamInProcess(['sessions'], dir, env);
    expect(plain.stdout).toContain(`sessions (${join(dir, 'default.db')})`);
  });

  it.each([
    [['sessions', '--db', '']],
    [['sessions', '--db=']],
    [['chat', '-m', 'hi', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'demo', '--db=']],
    [['approve', 'ap-1', 'yes', '--db', ' ']],
    [['resume', '--config=']],
    [['tools', '--config', '']],
  ])(
    '%j: an empty path is refused naming the flag, and the default database is not touched',
    async (args) => {
      const r = await toolseamInProcess(args, dir, env);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      const flag = args.some((a) => a.startsWith('--db')) ? '--db' : '--config';
      expect(r.stderr).toContain(`${flag} needs a file path`);
      expect(existsSync(join(dir, 'default.db'))).toBe(false);
    },
  );
});

describe('a database path that names no file, for the commands that only read or answer what is there', () => {
  it.each([[['sessions']], [['approve', 'ap-1', 'yes']], [['resume']]])(
    '%j: a mistyped $TOOLSEAM_DB is refused in one line naming the path and the variable',
    async (args) => {
      const typo = join(dir, 'sesions.db');
      const r = await toolseamInProcess(args, dir, { TOOLSEAM_DB: typo });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`there is no session database at ${typo} (named by $TOOLSEAM_DB)`);
      expect(existsSync(typo)).toBe(false);
    },
  );

  it.each([[['sessions']], [['approve', 'ap-1', 'yes']], [['resume']]])(
    '%j: a mistyped --db is refused the same way, naming --db',
    async (args) => {
      const typo = join(dir, 'sesions.db');
      const r = await toolseamInProcess([...args, '--db', typo], dir, env);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`there is no session database at ${typo} (named by --db)`);
      expect(r.stderr).not.toContain('TOOLSEAM_DB');
      expect(existsSync(typo)).toBe(false);
    },
  );

  it('a "db" in the config that names no file is refused naming the config file', async () => {
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ db: 'typo.db' }));
    const r = await toolseamInProcess(['sessions'], dir, env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(
      `there is no session database at ${join(dir, 'typo.db')} (named by "db" in ${join(dir, 'toolseam.json')})`,
    );
  });

  it('chat still creates the file $TOOLSEAM_DB names, and sessions then reads it', async () => {
    const standIn = await startStandIn({ family: 'openai', script: [{ text: 'Hello.' }] });
    try {
      const fresh = join(dir, 'fresh.db');
      const chat = await toolseamInProcess(
        ['chat', '-m', 'hi', '--base-url', standIn.baseURL, '--model', 'demo'],
        dir,
        { TOOLSEAM_DB: fresh },
      );
      expect(chat.code).toBe(0);
      expect(existsSync(fresh)).toBe(true);
      const listed = await toolseamInProcess(['sessions', '--json'], dir, { TOOLSEAM_DB: fresh });
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout).sessions).toHaveLength(1);
    } finally {
      await standIn.close();
    }
  });
});

describe('the commands that only read or answer never create the default database', () => {
  it.each([
    [['sessions'], 0, /^no sessions yet: there is no session database yet at (\S+) /],
    [['sessions', '--json'], 0, undefined],
    [['resume'], 0, /^no interrupted turns: there is no session database yet at (\S+) /],
    [['resume', 't-1'], 2, /^there is no turn t-1: there is no session database yet at (\S+) /],
    [['approve', 'ap-1', 'yes'], 2, /^there is no approval ap-1: there is no session database yet at (\S+) /],
    [['grants'], 0, /^no standing permissions yet: there is no session database yet at (\S+) /],
    [['grants', '--revoke', 'g-1'], 2, /^there is no grant g-1: there is no session database yet at (\S+) /],
  ] as const)(
    '%j with a fresh data folder says there is nothing yet, and where it looked',
    async (args, code, said) => {
      const data = join(dir, 'data');
      const r = await toolseamInProcess(args, dir, { XDG_DATA_HOME: data, TOOLSEAM_DB: '' });
      expect(r.code).toBe(code);
      const expected = join(data, 'toolseam', 'toolseam.db');
      if (said === undefined) {
        expect(JSON.parse(r.stdout)).toEqual({
          sessions: [],
          pendingApprovals: [],
          grants: [],
          unfinishedBatches: [],
          interruptedTurns: [],
        });
      } else {
        const told = (code === 0 ? r.stdout : r.stderr).trim().replace(/^toolseam \w+: /, '');
        expect(told.split('\n')).toHaveLength(1);
        expect(said.exec(told)?.[1]).toBe(expected);
      }
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(data)).toBe(false);
    },
  );
});
