import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { TSX_LOADER } from '../support/tsx-loader.js';
import { spawnToolseam } from './spawn-toolseam.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-faults-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** An installed app with a tool that never settles and one that throws from a timer after it answered. */
function writeFaultyApp(): void {
  const app = join(dir, 'apps', 'faulty');
  mkdirSync(app, { recursive: true });
  const manifest = { name: 'faulty', description: 'Tools that misbehave.', entry: 'index.js' };
  writeFileSync(join(app, 'toolseam-app.json'), JSON.stringify(manifest));
  writeFileSync(
    join(app, 'index.js'),
    [
      'const none = { type: "object", properties: {} };',
      'export const tools = [',
      "  { name: 'wait_forever', description: 'Never answers.', risk: 'safe', parameters: none },",
      "  { name: 'fire_later', description: 'Answers, then fails in a timer.', risk: 'safe', parameters: none },",
      '];',
      'export async function invoke(name) {',
      "  if (name === 'wait_forever') return new Promise(() => {});",
      "  setTimeout(() => { throw new Error('the cache refresh failed'); }, 20);",
      "  return { content: 'scheduled' };",
      '}',
    ].join('\n'),
  );
  const config = { apps: ['./apps/faulty'], toolTimeouts: { wait_forever: 1500 } };
  writeFileSync(join(dir, 'toolseam.json'), JSON.stringify(config));
}

/** `chat -m message` on the stand-in, with the database it uses. */
function chatArgs(message: string) {
  const db = join(dir, 't.db');
  return {
    db,
    args: ['chat', '-m', message, '--base-url', standIn?.baseURL ?? '', '--model', 'demo', '--db', db],
  };
}

describe('an installed app that misbehaves inside `chat -m`', () => {
  it('a tool whose promise never settles ends at its deadline as a tool error, and the turn is answered (exit 0)', async () => {
    writeFaultyApp();
    standIn = await startStandIn({
      family: 'openai',
      script: [{ toolCalls: [{ name: 'wait_forever', arguments: {} }] }, { echo: 'lastToolResult' }],
    });
    const { db, args } = chatArgs('wait for it');
    const result = await toolseamInProcessWithoutKeys(args, dir);
    expect(result.stdout).toContain('wait_forever did not finish within 1.5 s, its time limit');
    expect(result.stderr).toContain(
      'wait_forever (provider "faulty", app "faulty") did not finish within 1.5 s',
    );
    expect(result.code).toBe(0);
    const store = openSessionStore({ path: db });
    try {
      expect((await store.listTurns()).map((t) => t.status)).toEqual(['done']);
      expect((await store.listToolCalls({})).map((c) => [c.tool, c.status, c.isError])).toEqual([
        ['wait_forever', 'done', true],
      ]);
    } finally {
      await store.close();
    }
  });

  it('an exception an app throws from a timer is told on stderr with where it came from, and the chat goes on', async () => {
    writeFaultyApp();
    standIn = await startStandIn({
      family: 'openai',
      // the second answer waits, so the app's timer fires while the turn is still running
      script: [
        { toolCalls: [{ name: 'fire_later', arguments: {} }] },
        { text: 'It is scheduled.', delayMs: 1_000 },
      ],
    });
    // The process's own handler for errors nobody caught is what this tests: it runs in a child.
    const result = await spawnToolseam(chatArgs('schedule it').args, dir).done;
    expect(result.stderr).toContain('the installed app "faulty" threw an error nobody caught');
    expect(result.stderr).toContain('apps/faulty/index.js:8');
    expect(result.stderr).toContain('the cache refresh failed');
    expect(result.stdout.trim()).toBe('It is scheduled.');
    expect(result.code).toBe(0);
  });
});

describe("an exception from toolseam's own code", () => {
  it('is still a crash, with its stack (it is a bug, not hosted code)', () => {
    const module = join(import.meta.dirname, '..', '..', 'src', 'cli', 'stray-rejections.ts');
    const script = [
      `const { keepRunningOnStrayRejections } = await import(${JSON.stringify(module)});`,
      'keepRunningOnStrayRejections((line) => process.stderr.write(line));',
      "setTimeout(() => { throw new Error('an own bug'); }, 10);",
      'setTimeout(() => {}, 5_000);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Error: an own bug\n\s+at /);
  });
});
