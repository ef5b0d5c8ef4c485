import { linkSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
const SECRET = 'outside-secret-line';

beforeEach(async () => {
  ({ bench, tools } = await freshBench());
  writeFileSync(join(bench.outside, 'secret.txt'), `${SECRET}\n`);
  // A second name, inside the workspace, for a file outside it.
  linkSync(join(bench.outside, 'secret.txt'), join(bench.ws, 'notes.txt'));
  writeFileSync(join(bench.ws, 'plain.txt'), 'plain line\n');
});
afterEach(() => bench.cleanup());

describe('a hard link in the workspace to a file outside it', () => {
  it('is refused by every file tool that names it, saying why', async () => {
    const ctx = tools.turn();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['read_file', { path: 'notes.txt' }],
      ['grep', { pattern: 'secret', path: 'notes.txt' }],
      ['edit_file', { path: 'notes.txt', old_text: SECRET, new_text: 'changed' }],
      ['list_dir', { path: 'notes.txt' }],
      ['glob', { pattern: 'notes.txt' }],
    ];
    for (const [tool, args] of calls) {
      const result = await tools.invoke(tool, args, ctx);
      expect(result.data, `${tool} ${JSON.stringify(args)}`).toMatchObject({ code: 'hard_link', names: 2 });
      expect(result.content).not.toContain(SECRET);
    }
    const read = await tools.invoke('read_file', { path: 'notes.txt' }, ctx);
    expect(read.content).toBe(
      'notes.txt is one of 2 names of the same file (hard links), and the others may lie outside the workspace folders, so the file tools neither read nor change it.',
    );
    expect(readFileSync(join(bench.outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('write_file replaces the workspace name alone, never the file outside', async () => {
    const written = await tools.invoke(
      'write_file',
      { path: 'notes.txt', content: 'replaced\n' },
      tools.turn(),
    );
    expect(written.isError).toBe(false);
    expect(readFileSync(join(bench.ws, 'notes.txt'), 'utf8')).toBe('replaced\n');
    expect(readFileSync(join(bench.outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('is passed over by a search of its folder, which still searches the rest', async () => {
    const found = await tools.invoke('grep', { pattern: 'line' }, tools.turn());
    expect(found.content).toBe('plain.txt:1: plain line');
  });

  it('a file with one name is read as ever', async () => {
    const read = await tools.invoke('read_file', { path: 'plain.txt' }, tools.turn());
    expect(read.content).toBe('     1\tplain line');
  });
});
