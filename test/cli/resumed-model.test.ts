import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { chatKilledWhileWaiting } from './killed-chat.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir: string;
const standIns: StandIn[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-resumed-model-'));
});
afterEach(async () => {
  await Promise.all(standIns.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('approve and resume go on with the model the turn started on', () => {
  it('approve resumes on the recorded server and model, whatever the environment suggests; another --model is refused first', async () => {
    const a = await startStandIn({
      family: 'openai',
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'buy milk' } }] },
        { text: 'Saved on A.' },
      ],
    });
    const b = await startStandIn({ family: 'openai', script: [{ text: 'Wrong server.' }] });
    standIns.push(a, b);
    const db = join(dir, 't.db');
    const { id, turnId } = await chatKilledWhileWaiting(a, db, dir);
    const elsewhere = { OPENAI_API_KEY: 'x', OPENAI_BASE_URL: b.baseURL };

    const other = await toolseamInProcessWithoutKeys(
      ['approve', id, 'yes', '--db', db, '--model', 'gpt-4.1'],
      dir,
      elsewhere,
    );
    expect(other.code).toBe(2);
    expect(other.stderr.trim().split('\n')).toHaveLength(1);
    expect(other.stderr).toContain(`ran on openai-compatible model "demo" at ${a.baseURL}`);
    expect(other.stderr).toContain('--model gpt-4.1');
    const resumeOther = await toolseamInProcessWithoutKeys(
      ['resume', turnId, '--db', db, '--base-url', b.baseURL],
      dir,
    );
    expect(resumeOther.code).toBe(2);
    expect(resumeOther.stderr).toMatch(/--base-url .* names another/);

    const approved = await toolseamInProcessWithoutKeys(['approve', id, 'yes', '--db', db], dir, elsewhere);
    expect(approved.stderr).not.toMatch(/\n\s+at /);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('Saved on A.');
    expect(b.requests).toHaveLength(0);
    expect(a.requests.map((r) => (r.body as { model?: string }).model)).toEqual(['demo', 'demo']);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('buy milk');
    const listed = await toolseamInProcessWithoutKeys(['sessions', '--db', db, '--json'], dir);
    expect(JSON.parse(listed.stdout).sessions[0]).toMatchObject({
      provider: 'openai-compatible',
      model: 'demo',
    });
  });
});

describe('a --base-url is the recorded one when it differs only as spelling', () => {
  it('approve with the recorded base URL and a trailing slash resumes; another path on that server is refused', async () => {
    const a = await startStandIn({
      family: 'openai',
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'buy milk' } }] },
        { text: 'Saved on A.' },
      ],
    });
    standIns.push(a);
    const db = join(dir, 't.db');
    const { id, turnId } = await chatKilledWhileWaiting(a, db, dir);
    for (const other of [`${a.baseURL}//`, `${a.baseURL}/v2`, a.baseURL.replace(/\/v1$/, '')]) {
      const refused = await toolseamInProcessWithoutKeys(
        ['resume', turnId, '--db', db, '--base-url', other],
        dir,
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`--base-url ${other} names another`);
    }
    const approved = await toolseamInProcessWithoutKeys(
      ['approve', id, 'yes', '--db', db, '--base-url', `${a.baseURL}/`],
      dir,
    );
    expect(approved.stderr).not.toMatch(/names another/);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('Saved on A.');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('buy milk');
  });
});
