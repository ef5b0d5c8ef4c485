import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(() => ({ bench, tools } = freshBench()));
afterEach(() => bench.cleanup());

const KEY = 'sk-live-4f8a2c9e7b1d6f3a';
const secrets = new Map([['MODEL_KEY', KEY]]);

describe('read_file hides secrets before it cuts a long line', () => {
  it('shows no part of a secret that crosses the 2,000-character cut', async () => {
    writeFileSync(join(bench.ws, 'long.txt'), `${'x'.repeat(1990)}${KEY}${'y'.repeat(100)}\nnext\n`);
    const result = await tools.invoke('read_file', { path: 'long.txt' }, tools.turn({ secrets }));
    expect(result.isError).toBe(false);
    expect(result.content).not.toContain(KEY.slice(0, 6));
    expect(result.content).toContain(`${'x'.repeat(1990)}[secret:MODEL_KEY] … [line cut]`);
    expect(result.content).toContain('     2\tnext');
  });

  it('hides a secret that runs over several lines, keeping the line numbers', async () => {
    const pem = '-----BEGIN KEY-----\nQm9vbXNoYWthbGFrYQ==\n-----END KEY-----';
    writeFileSync(join(bench.ws, 'key.txt'), `first\nkey = ${pem}\nlast\n`);
    const ctx = tools.turn({ secrets: new Map([['PEM', pem]]) });
    const result = await tools.invoke('read_file', { path: 'key.txt' }, ctx);
    expect(result.content).toBe(
      '     1\tfirst\n     2\tkey = [secret:PEM]\n     3\t\n     4\t\n     5\tlast',
    );
  });
});
