import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

describe('edit_file calls on one file that run side by side (one model reply, no ask)', () => {
  it('keeps every edit: each one applies to the file as the one before it left it', async () => {
    const full = join(bench.ws, 'plan.md');
    writeFileSync(full, 'one\ntwo\nthree\nfour\n');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'plan.md' }, ctx);
    const results = await Promise.all(
      ['one', 'two', 'three', 'four'].map((word) =>
        tools.invoke('edit_file', { path: 'plan.md', old_text: word, new_text: word.toUpperCase() }, ctx),
      ),
    );
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false]);
    expect(readFileSync(full, 'utf8')).toBe('ONE\nTWO\nTHREE\nFOUR\n');
  });

  it('refuses whichever of two edits of the same text comes second, with the usual message', async () => {
    const full = join(bench.ws, 'plan.md');
    writeFileSync(full, 'alpha\n');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'plan.md' }, ctx);
    const results = await Promise.all([
      tools.invoke('edit_file', { path: 'plan.md', old_text: 'alpha', new_text: 'beta' }, ctx),
      tools.invoke('edit_file', { path: 'plan.md', old_text: 'alpha', new_text: 'gamma' }, ctx),
    ]);
    // Side by side, either may go first; the other finds its text gone.
    const done = results.filter((r) => !r.isError);
    const refused = results.filter((r) => r.isError);
    expect(done).toHaveLength(1);
    expect(refused[0]?.content).toContain('old_text was not found in plan.md');
    expect(['beta\n', 'gamma\n']).toContain(readFileSync(full, 'utf8'));
  });
});

describe('write_file and edit_file on one file side by side', () => {
  it('applies the edit to what the write left, or writes after the edit: never the edit over old text', async () => {
    const full = join(bench.ws, 'plan.md');
    writeFileSync(full, 'old\n');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'plan.md' }, ctx);
    const [wrote, edited] = await Promise.all([
      tools.invoke('write_file', { path: 'plan.md', content: 'new\nold\n' }, ctx),
      tools.invoke('edit_file', { path: 'plan.md', old_text: 'old', new_text: 'kept' }, ctx),
    ]);
    expect(wrote?.isError).toBe(false);
    expect(edited?.isError).toBe(false);
    // Side by side, either may go first; neither loses what the other did before it.
    expect(['new\nkept\n', 'new\nold\n']).toContain(readFileSync(full, 'utf8'));
  });
});

describe('edit_file and then write_file on one file side by side', () => {
  it('keeps what the write wrote: the edit never writes back over it', async () => {
    const full = join(bench.ws, 'plan.md');
    writeFileSync(full, 'old\n'.repeat(20_000));
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'plan.md', limit: 1 }, ctx);
    const [edited, wrote] = await Promise.all([
      tools.invoke(
        'edit_file',
        { path: 'plan.md', old_text: 'old', new_text: 'kept', replace_all: true },
        ctx,
      ),
      tools.invoke('write_file', { path: 'plan.md', content: 'new\n' }, ctx),
    ]);
    // Side by side, either may go first: the edit applied before the write, or refused after it.
    expect(wrote?.isError).toBe(false);
    if (edited?.isError) expect(edited.content).toContain('old_text was not found');
    expect(readFileSync(full, 'utf8')).toBe('new\n');
  });
});
