import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { spawnToolseam, until } from '../cli/spawn-toolseam.js';
import { dueAutomation } from '../support/due-automation.js';
import { apiCall } from './served.js';

let dir = '';
let standIn: StandIn | undefined;
let child: ReturnType<typeof spawnToolseam> | undefined;
afterEach(async () => {
  if (child?.proc.exitCode === null) child.proc.kill('SIGKILL');
  child = undefined;
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('toolseam serve with automations configured', () => {
  it('runs a due automation as a session of its own, and stops cleanly on SIGTERM', async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolseam-serve-automations-'));
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ automations: { timeZone: 'UTC' } }));
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'The digest: nothing new.' }] });
    const db = join(dir, 't.db');
    await dueAutomation(db, 'digest', 60_000);
    child = spawnToolseam(
      ['serve', '--port', '0', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db],
      dir,
    );
    const running = child;
    await until(
      'the server to listen',
      () => /automations: /.test(running.stdout()) || running.proc.exitCode !== null,
    );
    const base = /toolseam serve: (http:\/\/\S+?)\/?\n/.exec(running.stdout())?.[1];
    expect(base, running.stderr()).toBeDefined();
    let titles: string[] = [];
    await eventually('the automation to run', async () => {
      const listed = (await (await apiCall(base as string, '/api/sessions')).json()) as {
        sessions: { title: string }[];
      };
      titles = listed.sessions.map((s) => s.title);
      return titles.length > 0;
    });
    expect(titles[0]).toMatch(/^digest/);
    await eventually('the run to be recorded', async () => {
      const store = openSessionStore({ path: db });
      try {
        return (await store.getAutomation('digest'))?.lastRun?.status === 'done';
      } finally {
        await store.close();
      }
    });
    expect(standIn.requests).toHaveLength(1);
    running.proc.kill('SIGTERM');
    expect((await running.done).code).toBe(0);
  });
});

/** Polls an asynchronous check until it holds (20 s at most: a bound, not a timing). */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
