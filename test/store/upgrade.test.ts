import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelAdapter } from '../../src/providers/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { openSessionStore } from '../../src/store/index.js';
import { schemaVersion } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { builtinProviders } from '../../src/tools/builtin/builtin-providers.js';
import { createToolRegistry } from '../../src/tools/registry.js';
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
  // The waiting approval was asked with the 5-minute deadline of its day: on the copy it is asked again
  // now, or it would have expired before any test could answer it.
  const db = new Database(path);
  db.prepare(`UPDATE approvals SET expires_at = ? WHERE status = 'pending'`).run(Date.now() + 300_000);
  db.close();
  const workspace = join(dir, 'ws');
  return { path, workspace };
}

describe('a database written by release 0.1.0', () => {
  it('opens with this release, migrated to the current schema, with every record kept', () => {
    const { path } = copyOfFixture();
    const db = new Database(path, { readonly: true });
    expect(schemaVersion(db)).toBe(12);
    db.close();
    const store = openSessionStore({ path });
    try {
      const migrated = new Database(path, { readonly: true });
      expect(schemaVersion(migrated)).toBe(MIGRATIONS.length);
      migrated.close();
      expect(
        store
          .listSessions()
          .map((s) => s.id)
          .sort(),
      ).toEqual(['granted-session', 'plain-session', 'waiting-session']);
      expect(store.listMessages('granted-session').map((m) => m.message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
        'assistant',
        'tool',
        'assistant',
      ]);
      expect(store.listMemories().map((m) => m.text)).toEqual(['The person prefers short answers.']);
      expect(store.listTasks().map((t) => t.title)).toEqual(['Water the plants']);
      const pending = store.listApprovals({ status: 'pending' });
      expect(pending).toHaveLength(1);
      expect(pending[0]).toMatchObject({ tool: 'bash', arguments: { command: 'rm old.log' } });
      expect(store.listTurns({ status: ['running', 'waiting_approval'] }).map((t) => t.sessionId)).toEqual([
        'waiting-session',
      ]);
      expect(
        store
          .listGrants({ sessionId: 'granted-session' })
          .map((g) => [g.tool, g.sessionId ?? 'everywhere'])
          .sort(),
      ).toEqual([
        ['bash', 'granted-session'],
        ['write_file', 'everywhere'],
      ]);
    } finally {
      store.close();
    }
  });

  it('goes on with its sessions: a new turn reads the old history, and the waiting turn resumes once approved', async () => {
    const { path, workspace } = copyOfFixture();
    standIn = await startStandIn({
      family: 'openai',
      script: [{ text: 'still here' }, { text: 'removed' }],
    });
    const store = openSessionStore({ path });
    const registry = createToolRegistry();
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'old.log'), 'old\n');
    for (const provider of builtinProviders({ workspace: [workspace], memory: store, tasks: store })) {
      registry.register(provider);
    }
    const model = createModelAdapter({
      ...standIn.modelConfig('stand-in-model'),
      retry: { maxRetries: 0 },
    } as never);
    const runtime = new Runtime({ model, registry, store, workspace: [workspace] });
    try {
      const next = await collect(runtime.session('plain-session').send('are you there?'));
      expect(turnEnd(next)).toMatchObject({ status: 'done', message: 'still here' });
      const sent = standIn.requests[0]?.messages.map((m) => m.content);
      expect(JSON.stringify(sent)).toContain('hello');
      expect(JSON.stringify(sent)).toContain('a plain answer');

      const [pending] = runtime.pendingApprovals();
      const [orphan] = runtime.orphanedTurns();
      expect(orphan?.sessionId).toBe('waiting-session');
      runtime.respond(pending?.id as string, { kind: 'approve' }, { digest: pending?.digest as string });
      const resumed = await collect(runtime.resumeTurn(orphan?.id as string));
      expect(turnEnd(resumed).status).toBe('done');
      expect(existsSync(join(workspace, 'old.log'))).toBe(false);
      expect(store.getTurn(orphan?.id as string)?.status).toBe('done');
    } finally {
      await runtime.close();
    }
  });
});
