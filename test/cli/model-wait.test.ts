import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { printEvent } from '../../src/cli/event-printer.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-wait-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function chat(...extra: string[]) {
  const args = ['chat', '-m', 'hello', '--base-url', standIn?.baseURL ?? '', '--model', 'demo'];
  return toolseamInProcessWithoutKeys([...args, '--db', join(dir, 't.db'), ...extra], dir);
}

describe('toolseam chat and a model slow to start answering', () => {
  it('--first-byte-timeout gives up a silent attempt, says so on one line and tries again', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [{ text: 'Too late.', delayMs: 20_000 }, { text: 'On time.' }],
    });
    const run = await chat('--first-byte-timeout', '0.5');
    expect(run.stderr).toMatch(
      /^\(openai-compatible: the answer did not start in time; trying again in [\d.]+ s, attempt 2 of 3\)$/m,
    );
    expect(run.stdout.trim()).toBe('On time.');
    expect(run.code).toBe(0);
  }, 40_000);

  it('refuses a --first-byte-timeout that is not a number of seconds, before anything is sent', async () => {
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'Never sent.' }] });
    const run = await chat('--first-byte-timeout', 'soon');
    expect(run.stderr).toContain(
      '--first-byte-timeout takes a number of seconds above 0 (such as 30), not "soon".',
    );
    expect(run.code).toBe(2);
    expect(standIn.requests).toHaveLength(0);
  });

  it('prints a wait the runtime reports as one line between the answer and the rest', () => {
    let info = '';
    let out = '';
    const streams = {
      out: { write: (t: string) => (out += t) } as never,
      info: { write: (t: string) => (info += t) } as never,
    };
    const state = { midLine: false };
    printEvent({ type: 'model-waiting', waitedMs: 12_345 }, streams, state);
    expect(info).toBe('(still waiting for the model: 12 s so far)\n');
    expect(out).toBe('');
  });
});
