import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GrantScope } from '../../src/core/grant-scope.js';
import { openSessionStore } from '../../src/store/index.js';
import { commandScopeOf, folderScopeOf, newCall, turnWithCalls } from '../store/store-fixtures.js';
import { toolseamInProcess } from './toolseam-in-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-grants-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A database where "always" was answered for `git status` in one session and for a folder for good. */
async function grantedStore() {
  const db = join(dir, 't.db');
  const store = openSessionStore({ path: db });
  const answer = async (
    tool: string,
    args: Record<string, string>,
    always: GrantScope,
    reach: 'session' | 'forever',
  ) => {
    const { session, turn } = await turnWithCalls(store, [newCall('c1', tool, args)]);
    const asked = await store.requestApproval({
      turnId: turn.id,
      callId: 'c1',
      risk: 'caution',
      meaning: 'm',
      always,
    });
    await store.answerApproval(asked.id, { kind: 'approve', always: reach });
    return { session, grant: (await store.listGrants({ sessionId: session.id, tool }))[0] };
  };
  const git = await answer('bash', { command: 'git status' }, commandScopeOf('git', 'status'), 'session');
  const notes = await answer(
    'write_file',
    { path: 'notes/a.md', content: 'x' },
    folderScopeOf('/w/notes'),
    'forever',
  );
  const other = await store.createSession();
  await store.close();
  return { db, git, notes, other };
}

describe('toolseam grants', () => {
  it('lists each standing permission with its id, tool, what it covers and where it holds', async () => {
    const { db, git, notes, other } = await grantedStore();
    const r = await toolseamInProcess(['grants', '--db', db], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  ${git.grant?.id}  bash  session ${git.session.id}, given `);
    expect(r.stdout).toContain('      covers: run `git status …` (any further arguments)');
    expect(r.stdout).toContain(`  ${notes.grant?.id}  write_file  every session, given `);
    expect(r.stdout).toContain('      covers: run write_file on files directly in `/w/notes` [/w/notes]');
    expect(r.stdout).not.toContain('withdrawn:');

    const only = await toolseamInProcess(['grants', '--db', db, '--session', other.id, '--json'], dir);
    expect(only.code).toBe(0);
    const listed = JSON.parse(only.stdout);
    expect(listed.grants.map((g: { id: string }) => g.id)).toEqual([notes.grant?.id]);
    expect(listed.withdrawn).toEqual([]);

    const sessions = await toolseamInProcess(['sessions', '--db', db], dir);
    expect(sessions.stdout).toContain('standing permissions ("always"):');
    expect(sessions.stdout).toContain(`  ${git.grant?.id}  bash  session ${git.session.id}`);
    expect(
      JSON.parse((await toolseamInProcess(['sessions', '--db', db, '--json'], dir)).stdout).grants,
    ).toHaveLength(2);
  }, 120_000);

  it('--revoke withdraws one, keeping its record; again says so; an unknown id is one clear line', async () => {
    const { db, git } = await grantedStore();
    const id = git.grant?.id as string;
    const revoked = await toolseamInProcess(['grants', '--db', db, '--revoke', id], dir);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(
      `withdrawn ${id}: bash is asked about again for what it covered (run \`git status …\` (any further arguments)).\n`,
    );
    const store = openSessionStore({ path: db });
    expect(await store.listGrants({ sessionId: git.session.id, tool: 'bash' })).toEqual([]);
    expect(await store.getGrant(id)).toMatchObject({ revokedBy: 'person' });
    await store.close();
    const listed = await toolseamInProcess(['grants', '--db', db], dir);
    expect(listed.stdout).toMatch(new RegExp(`withdrawn:\\n  ${id}  bash`));
    expect(listed.stdout).toMatch(/withdrawn \S+ by the person: withdrawn with `toolseam grants --revoke`/);

    const again = await toolseamInProcess(['grants', '--db', db, '--revoke', id], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${id} was already withdrawn`);

    const unknown = await toolseamInProcess(['grants', '--db', db, '--revoke', 'g-nosuchgrant'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'toolseam grants: there is no standing permission g-nosuchgrant; `toolseam grants` lists them with their ids (g-…).\n',
    );
    const session = await toolseamInProcess(['grants', '--db', db, '--session', 'nope'], dir);
    expect(session.code).toBe(2);
    expect(session.stderr).toContain('there is no session nope');
  }, 120_000);

  it('shows the grants an upgrade withdrew, by the upgrade and why', async () => {
    const db = join(dir, 'old.db');
    copyFileSync(join(import.meta.dirname, '..', 'store', 'fixtures', 'release-0.1.0-v12.db'), db);
    const r = await toolseamInProcess(['grants', '--db', db], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/standing permissions \(.*\):\n {2}none\n\nwithdrawn:/);
    expect(r.stdout).toContain('covers: every bash call (an unscoped grant of an earlier version)');
    expect(r.stdout).toMatch(
      /withdrawn \S+ by the upgrade: it let every bash call run unasked, whatever its arguments/,
    );
    expect(r.stdout).toContain('write_file  every session');
    expect(readFileSync(db).length).toBeGreaterThan(0);
  }, 120_000);
});
