import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { spawnToolseam } from './spawn-toolseam.js';

let dir: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-closed-output-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const corpus = join(
  import.meta.dirname,
  '..',
  'seam',
  'corpus',
  'mcp-tools',
  'softeria__ms-365-mcp-server.json.gz',
);

/** Runs the CLI with its stdout closed before it writes a byte, as `toolseam … | head -0` does. */
function withClosedStdout(args: string[]) {
  const child = spawnToolseam(args, dir);
  child.proc.stdout.destroy();
  return child;
}

describe('a reader that closes the output (`toolseam … | head`)', () => {
  it('chat -m: the turn is stopped and recorded as stopped, not left interrupted, without a stack trace', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [
        { text: 'Looking around.', toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
        { text: 'Here is what I found.' },
      ],
    });
    const db = join(dir, 't.db');
    const args = ['chat', '-m', 'what is here?', '--base-url', standIn.baseURL, '--model', 'demo'];
    const r = await withClosedStdout([...args, '--db', db]).done;
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error'/);
    expect(r.stderr).toContain('The turn was stopped.');
    expect(r.code).toBe(1);
    const listed = await spawnToolseam(['sessions', '--db', db, '--json'], dir).done;
    expect(JSON.parse(listed.stdout)).toMatchObject({ interruptedTurns: [], pendingApprovals: [] });
  }, 60_000);

  it('a command that prints a long page (conform) ends quietly with its own exit code', async () => {
    const r = await withClosedStdout(['conform', corpus]).done;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);
});
