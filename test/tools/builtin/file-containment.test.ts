import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, makeBench, type Tools, toolsOn } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;

beforeEach(async () => {
  bench = await makeBench();
  tools = toolsOn(bench);
  writeFileSync(join(bench.outside, 'secret.txt'), 'outside the workspace\n');
  writeFileSync(join(bench.ws, 'inside.txt'), 'inside the workspace\n');
});
afterEach(() => bench.cleanup());

/** Calls preflight and invoke on one turn; both must refuse with the same code, and nothing runs. */
async function refusedBoth(name: string, args: Record<string, unknown>, code: string) {
  const ctx = tools.turn();
  const checked = await tools.preflight(name, args, ctx);
  const result = await tools.invoke(name, args, ctx);
  expect(checked).toMatchObject({ isError: true, notRun: 'refused_by_tool', data: { code } });
  expect(result).toEqual(checked);
  return result;
}

describe('the file tools stay inside the workspace folders', () => {
  it('refuses a path that climbs out with ..', async () => {
    const result = await refusedBoth('read_file', { path: '../outside/secret.txt' }, 'outside_workspace');
    expect(result.content).toContain('is outside every folder the file tools may use');
    expect(result.hints?.[0]).toContain('the person adds it to the workspace folders');
    await refusedBoth('write_file', { path: 'sub/../../outside/new.txt', content: 'x' }, 'outside_workspace');
    expect(existsSync(join(bench.outside, 'new.txt'))).toBe(false);
  });

  it('refuses an absolute path outside, with a hint on how the person adds a folder', async () => {
    const target = join(bench.outside, 'made.txt');
    const result = await refusedBoth('write_file', { path: target, content: 'x' }, 'outside_workspace');
    expect(result.content).toBe(`${target} is outside every folder the file tools may use (${bench.ws}).`);
    expect(result.hints).toHaveLength(1);
    expect(existsSync(target)).toBe(false);
  });

  it('takes an absolute path inside the workspace', async () => {
    const result = await tools.invoke('read_file', { path: join(bench.ws, 'inside.txt') }, tools.turn());
    expect(result).toEqual({ content: '     1\tinside the workspace', isError: false });
  });

  it('refuses a symbolic link that points out, for reading and for writing through it', async () => {
    symlinkSync(join(bench.outside, 'secret.txt'), join(bench.ws, 'looks-inside.txt'));
    const read = await refusedBoth('read_file', { path: 'looks-inside.txt' }, 'link_escape');
    expect(read.content).toContain(`resolves to ${join(bench.outside, 'secret.txt')}`);
    await refusedBoth('write_file', { path: 'looks-inside.txt', content: 'overwritten' }, 'link_escape');
    expect(readFileSync(join(bench.outside, 'secret.txt'), 'utf8')).toBe('outside the workspace\n');
  });

  it('refuses a new file under a symlinked folder that points out (the file does not exist yet)', async () => {
    symlinkSync(bench.outside, join(bench.ws, 'shared'));
    await refusedBoth('write_file', { path: 'shared/deeper/new.txt', content: 'x' }, 'link_escape');
    expect(existsSync(join(bench.outside, 'deeper'))).toBe(false);
  });

  it('refuses writing through a dangling link to a file that would be created outside', async () => {
    symlinkSync(join(bench.outside, 'not-yet.txt'), join(bench.ws, 'dangling.txt'));
    await refusedBoth('write_file', { path: 'dangling.txt', content: 'x' }, 'link_escape');
    expect(existsSync(join(bench.outside, 'not-yet.txt'))).toBe(false);
  });

  it('follows a link that stays inside the workspace', async () => {
    mkdirSync(join(bench.ws, 'real'));
    symlinkSync(join(bench.ws, 'real'), join(bench.ws, 'alias'));
    const ctx = tools.turn();
    const written = await tools.invoke('write_file', { path: 'alias/note.md', content: 'kept\n' }, ctx);
    expect(written.isError).toBe(false);
    expect(readFileSync(join(bench.ws, 'real', 'note.md'), 'utf8')).toBe('kept\n');
  });

  it('refuses a loop of links as naming no file', async () => {
    symlinkSync(join(bench.ws, 'b'), join(bench.ws, 'a'));
    symlinkSync(join(bench.ws, 'a'), join(bench.ws, 'b'));
    const result = await refusedBoth('read_file', { path: 'a' }, 'link_loop');
    expect(result.content).toContain('loop of symbolic links');
  });

  it('confines list_dir, glob and grep the same way', async () => {
    await refusedBoth('list_dir', { path: '..' }, 'outside_workspace');
    await refusedBoth('glob', { pattern: '../outside/*.txt' }, 'outside_workspace');
    await refusedBoth('glob', { pattern: `${bench.outside}/*.txt` }, 'outside_workspace');
    await refusedBoth('grep', { pattern: 'outside', path: bench.outside }, 'outside_workspace');
  });

  it('never follows a link out while searching a folder', async () => {
    symlinkSync(bench.outside, join(bench.ws, 'linked-out'));
    const ctx = tools.turn();
    const found = await tools.invoke('grep', { pattern: 'workspace' }, ctx);
    expect(found.content).toBe('inside.txt:1: inside the workspace');
    const globbed = await tools.invoke('glob', { pattern: '**/*.txt' }, ctx);
    expect(globbed.content).toBe('inside.txt');
  });

  it('uses every workspace folder, and a call’s own workspace over the configured one', async () => {
    const second = join(bench.dir, 'second');
    mkdirSync(second);
    writeFileSync(join(second, 'b.txt'), 'second folder\n');
    const both = toolsOn(bench, { workspace: [bench.ws, second] });
    const read = await both.invoke('read_file', { path: join(second, 'b.txt') }, both.turn());
    expect(read.content).toBe('     1\tsecond folder');
    const narrowed = both.turn({ workspace: [second] });
    const refused = await both.invoke('read_file', { path: join(bench.ws, 'inside.txt') }, narrowed);
    expect(refused.data).toEqual({ code: 'outside_workspace', path: join(bench.ws, 'inside.txt') });
  });

  it('refuses everything when no workspace folder exists', async () => {
    const gone = toolsOn(bench, { workspace: [join(bench.dir, 'missing')] });
    const result = await gone.invoke('list_dir', {}, gone.turn());
    expect(result).toMatchObject({ isError: true, data: { code: 'no_workspace' } });
    expect(result.content).toContain('None of the workspace folders exists');
  });
});

describe('a subagent leaf writes only where it may', () => {
  beforeEach(() => {
    mkdirSync(join(bench.ws, 'mine'));
    mkdirSync(join(bench.ws, 'theirs'));
    mkdirSync(join(bench.ws, 'mine', 'frozen'));
  });

  it('keeps writes inside ctx.writable', async () => {
    const ctx = tools.turn({ writable: ['mine'] });
    const ok = await tools.invoke('write_file', { path: 'mine/a.txt', content: 'a' }, ctx);
    expect(ok.isError).toBe(false);
    const refused = await tools.invoke('write_file', { path: 'theirs/a.txt', content: 'a' }, ctx);
    expect(refused).toMatchObject({ isError: true, data: { code: 'not_writable' } });
    expect(refused.content).toBe('theirs/a.txt is outside the folders this task may change (mine).');
    expect(existsSync(join(bench.ws, 'theirs', 'a.txt'))).toBe(false);
    const read = await tools.invoke('read_file', { path: 'inside.txt' }, ctx);
    expect(read.isError).toBe(false);
  });

  it('keeps writes out of ctx.offLimits, even inside a writable folder', async () => {
    const ctx = tools.turn({ writable: ['mine'], offLimits: [join(bench.ws, 'mine', 'frozen')] });
    const refused = await tools.invoke('write_file', { path: 'mine/frozen/x.txt', content: 'x' }, ctx);
    expect(refused).toMatchObject({ isError: true, data: { code: 'off_limits' } });
    expect(refused.content).toContain('which this task must not change');
  });
});

describe("toolseam's own configuration", () => {
  it('is never written by a file tool, by name or by configured path', async () => {
    const result = await refusedBoth('write_file', { path: 'toolseam.json', content: '{}' }, 'owner_only');
    expect(result.content).toBe(
      "toolseam.json is toolseam's own configuration. Only the person changes it, outside the chat.",
    );
    const config = join(bench.ws, 'settings', 'agent.json');
    mkdirSync(join(bench.ws, 'settings'));
    writeFileSync(config, '{}');
    const configured = toolsOn(bench, { configPaths: [config] });
    const ctx = configured.turn();
    await configured.invoke('read_file', { path: 'settings/agent.json' }, ctx);
    const edit = await configured.invoke(
      'edit_file',
      { path: 'settings/agent.json', old_text: '{}', new_text: '{"x":1}' },
      ctx,
    );
    expect(edit.data).toMatchObject({ code: 'owner_only' });
    expect(readFileSync(config, 'utf8')).toBe('{}');
  });
});
