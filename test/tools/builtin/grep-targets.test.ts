import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(() => ({ bench, tools } = freshBench()));
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
