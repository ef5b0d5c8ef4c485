import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../../src/tools/builtin/file-text.js';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

/** Settles with `'still waiting'` when `work` has not settled within `ms`. */
function within<T>(work: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  return Promise.race([work, new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), ms))]);
}

describe('grep on a path that is not a regular file or a folder', () => {
  it('refuses a named pipe before reading it, in preflight and invoke alike, instead of waiting forever', async () => {
    execFileSync('mkfifo', [join(bench.ws, 'jobs.pipe')]);
    const ctx = tools.turn();
    const args = { pattern: 'x', path: 'jobs.pipe' };
    const checked = await within(tools.preflight('grep', args, ctx), 2000);
    expect(checked).toMatchObject({ isError: true, data: { code: 'not_a_file' } });
    expect(await within(tools.invoke('grep', args, ctx), 2000)).toEqual(checked);
  });

  it('still searches a folder that holds a named pipe, passing the pipe over', async () => {
    execFileSync('mkfifo', [join(bench.ws, 'jobs.pipe')]);
    writeFileSync(join(bench.ws, 'notes.txt'), 'x marks the spot\n');
    const result = await within(tools.invoke('grep', { pattern: 'x' }, tools.turn()), 2000);
    expect(result).toMatchObject({ isError: false, content: 'notes.txt:1: x marks the spot' });
  });
});

describe('grep on a file too large for read_file', () => {
  it('searches it (read_file sends the model to grep for such files) and numbers its lines', async () => {
    const filler = `${'x'.repeat(99)}\n`;
    const lines = Math.ceil((MAX_FILE_BYTES + 1) / filler.length);
    const fd = openSync(join(bench.ws, 'big.log'), 'w');
    const block = filler.repeat(10_000);
    for (let written = 0; written < lines; written += 10_000) writeSync(fd, block);
    writeSync(fd, 'the needle is here\n');
    closeSync(fd);
    const written = Math.ceil(lines / 10_000) * 10_000;
    const ctx = tools.turn();
    const read = await tools.invoke('read_file', { path: 'big.log' }, ctx);
    expect(read.data).toMatchObject({ code: 'too_large' });
    const found = await tools.invoke('grep', { pattern: 'needle', path: 'big.log' }, ctx);
    expect(found).toMatchObject({ isError: false, content: `big.log:${written + 1}: the needle is here` });
    const inFolder = await tools.invoke('grep', { pattern: 'n[e]{2}dle', regex: true }, ctx);
    expect(inFolder.content).toBe(`big.log:${written + 1}: the needle is here`);
  }, 30_000);
});
