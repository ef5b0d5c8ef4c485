import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

// 255 bytes is the longest name most file systems take: each of these is a legal name close to it.
const NAMES = [`${'n'.repeat(250)}.txt`, `${'é'.repeat(125)}.md`, `${'日'.repeat(83)}.md`];

describe('file names close to the longest a file system takes', () => {
  it.each(NAMES)('edit_file changes %#, and leaves no temporary file beside it', async (name) => {
    writeFileSync(join(bench.ws, name), 'alpha\nbeta\n');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: name }, ctx);
    const result = await tools.invoke('edit_file', { path: name, old_text: 'beta', new_text: 'gamma' }, ctx);
    expect(result.content).toContain('Edited');
    expect(readFileSync(join(bench.ws, name), 'utf8')).toBe('alpha\ngamma\n');
    expect(readdirSync(bench.ws)).toEqual([name]);
  });

  it.each(NAMES)('write_file creates %#', async (name) => {
    const result = await tools.invoke(
      'write_file',
      { path: `notes/${name}`, content: 'hello\n' },
      tools.turn(),
    );
    expect(result.content).toContain('Created');
    expect(readFileSync(join(bench.ws, 'notes', name), 'utf8')).toBe('hello\n');
  });
});
