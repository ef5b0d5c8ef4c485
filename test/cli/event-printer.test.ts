import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { spawnToolseam } from './spawn-toolseam.js';

let dir: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-printer-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one `chat -m` whose model asks for `write_file` with `args`, then says the result it read. */
async function refusedChat(args: Record<string, string>, flags: string[]) {
  standIn = await startStandIn({
    family: 'openai',
    script: [{ toolCalls: [{ name: 'write_file', arguments: args }] }, { echo: 'lastToolResult' }],
  });
  const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', join(dir, 't.db')];
  return spawnToolseam(['chat', '-m', 'save a note', ...base, ...flags], dir).done;
}

/** The `✗` lines a person read on stderr. */
function crossLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.includes('✗'));
}

describe('a refused call as the person reads it', () => {
  it('plan mode: the reason once, without the advice to the model (which the model still reads)', async () => {
    const r = await refusedChat({ path: 'notes.txt', content: 'buy milk' }, ['--plan']);
    expect(crossLines(r.stderr)).toEqual([
      '  ✗ write_file not run: this session is in plan mode, where only read-only tools run',
    ]);
    expect(r.stdout).toContain(
      '`write_file` was blocked by the read-only gate (this session is in plan mode, where only read-only tools run). Do not retry the write',
    );
  });

  it('--approve deny: the reason once', async () => {
    const r = await refusedChat({ path: 'notes.txt', content: 'buy milk' }, ['--approve', 'deny']);
    expect(crossLines(r.stderr)).toEqual([
      '  ✗ write_file not run: this session refuses every call that needs approval',
    ]);
  });

  it("a tool's own refusal: the tool's name is not said twice", async () => {
    const r = await refusedChat({ path: 'notes.txt' }, []);
    const [line] = crossLines(r.stderr);
    expect(line).toMatch(/^ {2}✗ write_file not run: the call leaves out an argument/);
    expect(line).not.toMatch(/was not run/);
    expect(r.stdout).toContain('write_file was not run: the call leaves out an argument');
  });
});
