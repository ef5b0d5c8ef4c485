import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/core/approval.js';
import { AlwaysNotOfferedError } from '../../src/core/store-errors.js';
import { createModelAdapter } from '../../src/providers/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { openSessionStore } from '../../src/store/index.js';
import { schemaVersion } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { type ScriptTurn, type StandIn, startStandIn } from '../../src/testing/index.js';
import { builtinProviders } from '../../src/tools/builtin/builtin-providers.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { collect, turnEnd } from '../support/runtime-harness.js';

/**
 * A database written by release 0.1.0 (schema version 12, commit d893ab0) through its own runtime: a
 * session whose bash call was answered "always" for the session and whose write_file call "always" for
 * good, a plain session with a memory and a task, and a session whose turn was left waiting for an answer
 * to `bash {"command":"rm old.log"}` when its process was killed. Its turns' owner was renamed to
 * `fixture-host:…` so that no process of the machine running the test can pass for it.
 */
const FIXTURE = join(import.meta.dirname, 'fixtures', 'release-0.1.0-v12.db');

let dir: string | undefined;
let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A copy of the fixture in a fresh folder (the fixture itself is never opened for writing). */
function copyOfFixture(): { readonly path: string; readonly workspace: string } {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-upgrade-'));
  const path = join(dir, 'toolseam.db');
  copyFileSync(FIXTURE, path);
  // The waiting approval was asked with the release's 5-minute deadline when the fixture was written,
  // long past now: the copy's deadline moves to an hour from now, so the turn can still be answered.
  const db = new Database(path);
  db.prepare(`UPDATE approvals SET expires_at = ? WHERE status = 'pending'`).run(Date.now() + 3_600_000);
  db.close();
  const workspace = join(dir, 'ws');
  return { path, workspace };
}

/** A runtime on the migrated copy with the built-in tools, the stand-in playing `script`. */
async function runtimeOn(path: string, workspace: string, script: ScriptTurn[]) {
  standIn = await startStandIn({ family: 'openai', script });
  const store = openSessionStore({ path });
  const registry = createToolRegistry();
  mkdirSync(workspace, { recursive: true });
  for (const provider of builtinProviders({ workspace: [workspace], memory: store, tasks: store })) {
    registry.register(provider);
  }
  const model = createModelAdapter({
    ...standIn.modelConfig('stand-in-model'),
    retry: { maxRetries: 0 },
  } as never);
  return { store, standIn, runtime: new Runtime({ model, registry, store, workspace: [workspace] }) };
}

describe('a database written by release 0.1.0', () => {
  it('opens with this release, migrated to the current schema, with every record kept', async () => {
    const { path } = copyOfFixture();
    const db = new Database(path, { readonly: true });
    expect(schemaVersion(db)).toBe(12);
    db.close();
    const store = openSessionStore({ path });
    try {
      const migrated = new Database(path, { readonly: true });
      expect(schemaVersion(migrated)).toBe(MIGRATIONS.length);
      migrated.close();
      expect((await store.listSessions()).map((s) => s.id).sort()).toEqual([
        'granted-session',
        'plain-session',
        'waiting-session',
      ]);
      expect((await store.listMessages('granted-session')).map((m) => m.message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
        'assistant',
        'tool',
        'assistant',
      ]);
      expect((await store.listMemories()).map((m) => m.text)).toEqual(['The person prefers short answers.']);
      expect((await store.listTasks()).map((t) => t.title)).toEqual(['Water the plants']);
      const pending = await store.listApprovals({ status: 'pending' });
      expect(pending).toHaveLength(1);
      expect(pending[0]).toMatchObject({ tool: 'bash', arguments: { command: 'rm old.log' } });
      expect(
        (await store.listTurns({ status: ['running', 'waiting_approval'] })).map((t) => t.sessionId),
      ).toEqual(['waiting-session']);
      // Its grants covered every call of their tool: the upgrade withdrew them, keeping their record and why.
      expect(await store.listGrants({ sessionId: 'granted-session' })).toEqual([]);
      const withdrawn = await store.listGrants({ sessionId: 'granted-session', status: 'revoked' });
      expect(withdrawn.map((g) => [g.tool, g.sessionId ?? 'everywhere']).sort()).toEqual([
        ['bash', 'granted-session'],
        ['write_file', 'everywhere'],
      ]);
      for (const grant of withdrawn) {
        expect(grant).toMatchObject({ scope: undefined, revokedBy: 'upgrade', noticedAt: undefined });
        expect(grant.approvalId).toMatch(/^ap-/);
        expect(grant.revokedReason).toContain(
          `it let every ${grant.tool} call run unasked, whatever its arguments`,
        );
      }
    } finally {
      await store.close();
    }
  });

  it('goes on with its sessions: a new turn reads the old history, and the waiting turn resumes once approved', async () => {
    const { path, workspace } = copyOfFixture();
    const started = await runtimeOn(path, workspace, [{ text: 'still here' }, { text: 'removed' }]);
    const { store, runtime } = started;
    writeFileSync(join(workspace, 'old.log'), 'old\n');
    try {
      const next = await collect(await (await runtime.session('plain-session')).send('are you there?'));
      expect(turnEnd(next)).toMatchObject({ status: 'done', message: 'still here' });
      const sent = started.standIn.requests[0]?.messages.map((m) => m.content);
      expect(JSON.stringify(sent)).toContain('hello');
      expect(JSON.stringify(sent)).toContain('a plain answer');

      const [pending] = await runtime.pendingApprovals();
      const [orphan] = await runtime.orphanedTurns();
      expect(orphan?.sessionId).toBe('waiting-session');
      // Asked before "always" had a scope: its question never said what "always" covers, so only yes or no.
      expect(pending?.always).toBeUndefined();
      const always = () => runtime.respond(pending?.id as string, { kind: 'approve', always: 'session' });
      await expect(always()).rejects.toThrow(AlwaysNotOfferedError);
      expect(await store.listGrants({ sessionId: 'waiting-session' })).toEqual([]);
      await runtime.respond(
        pending?.id as string,
        { kind: 'approve' },
        { digest: pending?.digest as string },
      );
      const resumed = await collect(await runtime.resumeTurn(orphan?.id as string));
      expect(turnEnd(resumed).status).toBe('done');
      expect(existsSync(join(workspace, 'old.log'))).toBe(false);
      expect((await store.getTurn(orphan?.id as string))?.status).toBe('done');
    } finally {
      await runtime.close();
    }
  });

  it('asks again about calls its withdrawn grants covered, saying why the first time', async () => {
    const { path, workspace } = copyOfFixture();
    const bash = { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf ./keep' } }] };
    const write = { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'x' } }] };
    const { store, runtime } = await runtimeOn(path, workspace, [
      bash,
      { text: 'not run' },
      bash,
      { text: 'not run again' },
      write,
      { text: 'not written' },
    ]);
    mkdirSync(join(workspace, 'keep'));
    const asked: ApprovalRequest[] = [];
    const turn = async (sessionId: string, text: string) => {
      for await (const event of await (await runtime.session(sessionId)).send(text)) {
        if (event.type !== 'approval-request') continue;
        asked.push(event.request);
        await runtime.respond(event.request.id, { kind: 'deny' }, { digest: event.request.digest });
      }
    };
    try {
      await turn('granted-session', 'clean up');
      expect(asked).toHaveLength(1);
      expect(existsSync(join(workspace, 'keep'))).toBe(true);
      expect(asked[0]?.notice).toContain('asked again: the standing permission for bash');
      expect(asked[0]?.notice).toContain('(for this session)');
      expect(asked[0]?.notice).toContain('let every bash call run unasked, whatever its arguments');
      expect(asked[0]?.always).toMatchObject({ kind: 'command', words: ['rm'] });
      expect((await store.getApproval(asked[0]?.id as string))?.notice).toBe(asked[0]?.notice);
      // Said once: the next question about bash in that session is a plain one.
      await turn('granted-session', 'clean up again');
      expect(asked).toHaveLength(2);
      expect(asked[1]?.notice).toBeUndefined();
      // The write_file grant was for every session: a question in another session says so.
      await turn('plain-session', 'write a note');
      expect(asked).toHaveLength(3);
      expect(asked[2]?.notice).toContain('the standing permission for write_file');
      expect(asked[2]?.notice).toContain('(for every session)');
      expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    } finally {
      await runtime.close();
    }
  });
});
