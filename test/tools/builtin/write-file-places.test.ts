import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

describe('write_file under a file', () => {
  it('refuses before anyone is asked when a file stands where a folder of the path must be', async () => {
    writeFileSync(join(bench.ws, 'notes'), 'a file, not a folder');
    const ctx = tools.turn();
    const args = { path: 'notes/2026/today.md', content: 'hello' };
    const checked = await tools.preflight('write_file', args, ctx);
    expect(checked).toMatchObject({
      isError: true,
      notRun: 'refused_by_tool',
      data: { code: 'not_a_folder' },
    });
    expect(checked?.content).toContain('notes is a file');
    expect(await tools.invoke('write_file', args, ctx)).toEqual(checked);
    expect(readFileSync(join(bench.ws, 'notes'), 'utf8')).toBe('a file, not a folder');
  });
});

describe('write_file to a path ending in a slash', () => {
  it('refuses it as naming a folder instead of creating a file by that name', async () => {
    const ctx = tools.turn();
    const args = { path: 'docs/', content: '# Docs' };
    const checked = await tools.preflight('write_file', args, ctx);
    expect(checked).toMatchObject({ isError: true, data: { code: 'names_folder' } });
    expect(await tools.invoke('write_file', args, ctx)).toEqual(checked);
    expect(existsSync(join(bench.ws, 'docs'))).toBe(false);
  });
});
