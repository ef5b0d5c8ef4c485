import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { chatKilledWhileWaiting } from './killed-chat.js';
import { spawnToolseamWithoutStderr, until } from './spawn-toolseam.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir: string;
const standIns: StandIn[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-resume-'));
});
afterEach(async () => {
  await Promise.all(standIns.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('toolseam resume of a turn left waiting for an approval', () => {
  it('shows the call it waits for, with its arguments, and how to answer it, on stdout (stderr discarded)', async () => {
    const a = await startStandIn({
      family: 'openai',
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'buy milk' } }] },
        { text: 'Saved.' },
      ],
    });
    standIns.push(a);
    const db = join(dir, 't.db');
    const { turnId } = await chatKilledWhileWaiting(a, db, dir);

    const resume = spawnToolseamWithoutStderr(['resume', turnId, '--db', db], dir);
    resume.proc.stdin.end();
    onTestFinished(() => {
      resume.proc.kill('SIGKILL');
    });
    await until('the approval', () => /approve ap-\S+ yes/.test(resume.stdout()));
    const shown = resume.stdout();
    expect(shown).toContain('write_file wants to run');
    expect(shown).toContain('"path": "notes.txt"');
    const id = /approve (ap-\S+) yes/.exec(shown)?.[1] as string;
    expect(shown).toContain(`approval id: ${id}`);

    const approved = await toolseamInProcessWithoutKeys(['approve', id, 'yes', '--db', db], dir);
    expect(approved.code).toBe(0);
    const done = await resume.done;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('Saved.');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('buy milk');
  });
});
