import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

const KEY = 'sk-live-4f8a2c9e7b1d6f3a';
const secrets = new Map([['MODEL_KEY', KEY]]);

describe('read_file hides secrets before it cuts a long line', () => {
  it('shows no part of a secret that crosses the 2,000-character cut', async () => {
    writeFileSync(join(bench.ws, 'long.txt'), `first\n${'x'.repeat(1990)}${KEY}${'y'.repeat(100)}\nnext\n`);
    const result = await tools.invoke('read_file', { path: 'long.txt' }, tools.turn({ secrets }));
    expect(result.isError).toBe(false);
    expect(result.content).not.toContain(KEY.slice(0, 6));
    expect(result.content).toContain(`${'x'.repeat(1990)}[secret:MODEL_KEY] … [line cut]`);
    expect(result.content).toContain('     3\tnext');
    expect(result.content).toContain('cut after 2,008: call read_file with offset 2 and column 2009');
    const rest = await tools.invoke(
      'read_file',
      { path: 'long.txt', offset: 2, column: 2009 },
      tools.turn({ secrets }),
    );
    expect(rest.content.startsWith(`     2\t${'y'.repeat(100)}\n`)).toBe(true);
  });

  it('shows no part of a secret that crosses the end of a piece of one enormous line', async () => {
    writeFileSync(join(bench.ws, 'one.json'), `${'x'.repeat(15_990)}${KEY}${'y'.repeat(20_000)}`);
    const ctx = tools.turn({ secrets, resultChars: 20_000 });
    const piece = await tools.invoke('read_file', { path: 'one.json' }, ctx);
    expect(piece.content).not.toContain(KEY.slice(0, 6));
    expect(piece.content).toContain(`${'x'.repeat(15_990)}[secret:MODEL_KEY]\n`);
    expect(piece.content).toContain('Call read_file with offset 1 and column 16009 to read on.');
    const next = await tools.invoke('read_file', { path: 'one.json', offset: 1, column: 16_009 }, ctx);
    expect(next.content.startsWith(`     1\t${'y'.repeat(16_000)}\n`)).toBe(true);
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

describe('read_file within the room of one result', () => {
  it('shows as many whole lines as fit and says where to read on, so the runtime never cuts its note', async () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i + 1} ${'x'.repeat(50)}`).join('\n');
    writeFileSync(join(bench.ws, 'big.txt'), `${text}\n`);
    const result = await tools.invoke('read_file', { path: 'big.txt' }, tools.turn({ resultChars: 8000 }));
    expect(result.content.length).toBeLessThanOrEqual(8000);
    const note = result.content.split('\n').at(-1) ?? '';
    const last = Number(/^\[lines 1–(\d+) of 500, as many as fit in one result\./.exec(note)?.[1]);
    expect(last).toBeGreaterThan(100);
    expect(note).toContain(`Call read_file with offset ${last + 1} to read on.`);
    expect(result.content).toContain(`${String(last).padStart(6)}\tline ${last} `);
    const next = await tools.invoke(
      'read_file',
      { path: 'big.txt', offset: last + 1 },
      tools.turn({ resultChars: 8000 }),
    );
    expect(next.content.startsWith(`${String(last + 1).padStart(6)}\tline ${last + 1} `)).toBe(true);
  });

  it('shows a long line even when it alone is over the room', async () => {
    writeFileSync(join(bench.ws, 'wide.txt'), `${'y'.repeat(1900)}\nshort\n`);
    const result = await tools.invoke('read_file', { path: 'wide.txt' }, tools.turn({ resultChars: 1000 }));
    expect(result.content).toContain('     1\tyyyy');
    expect(result.content).toContain(
      '[lines 1–1 of 2, as many as fit in one result. Call read_file with offset 2 to read on.]',
    );
  });
});
