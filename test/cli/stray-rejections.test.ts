import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeStrayRejection } from '../../src/cli/stray-rejections.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { spawnToolseam } from './spawn-toolseam.js';

let dir: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-stray-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** An installed app whose one tool answers, leaving a rejected promise behind that nothing catches. */
function writeStrayApp(): void {
  const app = join(dir, 'apps', 'stray');
  mkdirSync(app, { recursive: true });
  const manifest = {
    name: 'stray',
    description: 'Answers pong, and forgets a failed refresh.',
    entry: 'index.js',
  };
  writeFileSync(join(app, 'toolseam-app.json'), JSON.stringify(manifest));
  writeFileSync(
    join(app, 'index.js'),
    [
      "export const tools = [{ name: 'ping', description: 'Answers pong.', risk: 'safe', parameters: { type: 'object', properties: {} } }];",
      'export async function invoke() {',
      "  Promise.reject(new Error('the background refresh failed'));",
      "  return { content: 'pong' };",
      '}',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ apps: ['./apps/stray'] }));
}

describe('a rejected promise nobody catches', () => {
  it('is told on stderr with where it came from, and the chat goes on to the answer (exit 0)', async () => {
    writeStrayApp();
    standIn = await startStandIn({
      family: 'openai',
      script: [{ toolCalls: [{ name: 'ping', arguments: {} }] }, { text: 'It answered pong.' }],
    });
    const args = ['chat', '-m', 'ping it', '--base-url', standIn.baseURL, '--model', 'demo'];
    const run = await spawnToolseam([...args, '--db', join(dir, 't.db')], dir).done;
    expect(run.stderr).toContain('a promise was rejected with nobody to catch it');
    expect(run.stderr).toContain('apps/stray/index.js:3');
    expect(run.stderr).toContain('the background refresh failed');
    expect(run.stdout.trim()).toBe('It answered pong.');
    expect(run.code).toBe(0);
  });

  it('reads one line however the reason came', () => {
    expect(describeStrayRejection('plain text\nsecond line')).toMatch(
      /nobody to catch it: plain text\. toolseam/,
    );
    expect(describeStrayRejection(undefined)).toContain('nobody to catch it: undefined.');
    expect(describeStrayRejection(new Error('x')).split('\n')).toHaveLength(1);
  });
});
