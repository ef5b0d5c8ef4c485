import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { dueAutomation } from '../support/due-automation.js';
import { spawnToolseam } from './spawn-toolseam.js';

let dir = '';
let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('toolseam run-due in several processes at once', () => {
  it('three processes on one database race for one due occurrence: exactly one runs it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolseam-run-due-'));
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ automations: { timeZone: 'UTC' } }));
    standIn = await startStandIn({
      family: 'openai',
      script: [{ text: 'first' }, { text: 'second' }, { text: 'third' }],
    });
    const db = join(dir, 't.db');
    await dueAutomation(db, 'race', 1000);
    const args = ['run-due', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db];
    const results = await Promise.all([0, 1, 2].map(() => spawnToolseam(args, dir).done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const ran = results.filter((r) => r.stdout.startsWith('race: done'));
    expect(ran).toHaveLength(1);
    expect(results.filter((r) => r.stdout === 'nothing is due.\n')).toHaveLength(2);
    expect(standIn.requests).toHaveLength(1);
    const after = openSessionStore({ path: db });
    try {
      expect((await after.listSessions()).length).toBe(1);
      expect((await after.getAutomation('race'))?.lastRun?.status).toBe('done');
    } finally {
      await after.close();
    }
  });
});
