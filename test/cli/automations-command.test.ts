import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { dueAutomation } from '../support/due-automation.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir = '';
let standIn: StandIn | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-automations-'));
  writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ automations: { timeZone: 'UTC' } }));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => toolseamInProcessWithoutKeys(args, dir);

describe('toolseam automations and run-due', () => {
  it('run-due runs what is due once, saying how late; automations then lists the last result and the next run', async () => {
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'Digest: all quiet.' }] });
    const db = join(dir, 't.db');
    await dueAutomation(db, 'digest', 3 * 3600_000);
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', db];
    const ran = await run(['run-due', ...base]);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^digest: done, 3 h late \(session s-\S+\); notify: no notifier/);
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests[0]?.lastUserMessage).toContain('Unattended run of the automation "digest"');

    const again = await run(['run-due', ...base]);
    expect(again.stdout).toBe('nothing is due.\n');

    const listed = await run(['automations', '--db', db]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('automations (times in UTC;');
    expect(listed.stdout).toMatch(
      /- digest \(au-\S+\): every day at 08:00 \[0 8 \* \* \*\]; next run \w{3} \d+ \w{3} \d{4}, 08:00 \(UTC\)/,
    );
    expect(listed.stdout).toMatch(/last run: .*3 h late: done — session s-/);
    expect(listed.stdout).toContain('It ran 3 h late');
  });

  it('an unknown time zone in the config is refused, naming the key', async () => {
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ automations: { timeZone: 'Moon/Base' } }));
    const listed = await run(['automations', '--db', join(dir, 'none.db')]);
    expect(listed.code).not.toBe(0);
    expect(listed.stderr).toContain('"automations.timeZone" in');
    expect(listed.stderr).toContain('"Moon/Base" is not a time zone');
  });
});
