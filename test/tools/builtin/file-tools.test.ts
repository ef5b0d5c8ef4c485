import { linkSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools, toolsOn } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

function put(rel: string, text: string | Uint8Array): string {
  const full = join(bench.ws, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
}

describe('read_file', () => {
  it('shows numbered lines, in parts with offset and limit', async () => {
    put('five.txt', 'one\ntwo\nthree\nfour\nfive\n');
    const ctx = tools.turn();
    const part = await tools.invoke('read_file', { path: 'five.txt', offset: 2, limit: '2' }, ctx);
    expect(part.content).toBe(
      '     2\ttwo\n     3\tthree\n[lines 2–3 of 5. Call read_file with offset 4 to read on.]',
    );
    const tail = await tools.invoke('read_file', { path: 'five.txt', offset: 4 }, ctx);
    expect(tail.content).toBe('     4\tfour\n     5\tfive\n[lines 4–5 of 5. That is the end.]');
  });

  it('refuses what it cannot show: past the end, a folder, binary data, nothing there', async () => {
    put('short.txt', 'only\n');
    put('blob.bin', new Uint8Array([0x89, 0x50, 0x00, 0x01]));
    mkdirSync(join(bench.ws, 'folder'));
    const ctx = tools.turn();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ path: 'short.txt', offset: 3 }, 'past_end'],
      [{ path: 'folder' }, 'is_folder'],
      [{ path: 'blob.bin' }, 'binary'],
      [{ path: 'nothing.txt' }, 'not_found'],
    ];
    for (const [args, code] of cases) {
      const checked = await tools.preflight('read_file', args, ctx);
      expect(checked?.data, JSON.stringify(args)).toMatchObject({ code });
      expect(await tools.invoke('read_file', args, ctx)).toEqual(checked);
    }
  });

  it('refuses credential files, as the shell does, and grep passes over their lines', async () => {
    put('.env', 'OPENAI_API_KEY=sk-secret-value\n');
    put('app/.env.local', 'KEY=sk-local-secret\n');
    put('.ssh/id_ed25519', 'KEY private\n');
    put('.env.example', 'OPENAI_API_KEY=\n');
    put('notes.txt', 'KEY points\n');
    const ctx = tools.turn();
    for (const path of ['.env', 'app/.env.local', '.ssh/id_ed25519']) {
      const result = await tools.invoke('read_file', { path }, ctx);
      expect(result.data, path).toMatchObject({ code: 'credential_path' });
      expect(result.content).not.toContain('secret');
    }
    const refusal = await tools.invoke('read_file', { path: '.env' }, ctx);
    expect(refusal.content).toContain('.env is a .env file, where credentials are kept');
    const write = await tools.invoke('write_file', { path: '.env', content: 'X=1' }, ctx);
    expect(write.data).toMatchObject({ code: 'credential_path' });
    expect(readFileSync(join(bench.ws, '.env'), 'utf8')).toContain('sk-secret-value');
    expect((await tools.invoke('read_file', { path: '.env.example' }, ctx)).isError).toBe(false);
    const found = await tools.invoke('grep', { pattern: 'KEY' }, ctx);
    expect(found.content).toContain('notes.txt:1: KEY points');
    expect(found.content).toContain('.env.example:1: OPENAI_API_KEY=');
    expect(found.content).not.toContain('secret');
    expect(found.content).not.toContain('private');
  });

  it('grep stops a regular expression that backtracks without end, and says so', async () => {
    put('evil.txt', `${'a'.repeat(40)}b\n`);
    const result = await tools.invoke('grep', { pattern: '^(a+)+$', regex: true }, tools.turn());
    expect(result.isError).toBe(true);
    expect(result.data).toEqual({ code: 'regex_too_slow' });
    expect(result.content).toContain('ran for more than 5 s on one file and was stopped');
  }, 20_000);

  it('says an empty file is empty and cuts very long lines', async () => {
    put('empty.txt', '');
    put('long.txt', `short\n${'x'.repeat(2500)}\n`);
    const ctx = tools.turn();
    expect((await tools.invoke('read_file', { path: 'empty.txt' }, ctx)).content).toBe('empty.txt is empty.');
    const long = await tools.invoke('read_file', { path: 'long.txt' }, ctx);
    expect(long.content).toBe(
      `     1\tshort\n     2\t${'x'.repeat(2000)} … [line cut]\n` +
        '[line 2 is 2,500 characters, cut after 2,000: call read_file with offset 2 and column 2001 to read the rest of it.]',
    );
  });
});

describe('write_file', () => {
  it('creates a file and its missing folders, then replaces it', async () => {
    const ctx = tools.turn();
    const made = await tools.invoke('write_file', { path: 'a/b/c.txt', content: 'one\ntwo\n' }, ctx);
    expect(made).toEqual({ content: 'Created a/b/c.txt: 2 lines, 8 bytes.', isError: false });
    const again = await tools.invoke('write_file', { path: 'a/b/c.txt', content: 'three' }, ctx);
    expect(again.content).toBe('Replaced the content of a/b/c.txt: 1 line, 5 bytes.');
    expect(readFileSync(join(bench.ws, 'a/b/c.txt'), 'utf8')).toBe('three');
  });

  it('replaces a hard-linked file in the workspace without writing through to the file outside', async () => {
    const outside = join(bench.outside, 'outside.txt');
    writeFileSync(outside, 'keep me');
    linkSync(outside, join(bench.ws, 'hl.txt'));
    const result = await tools.invoke('write_file', { path: 'hl.txt', content: 'new' }, tools.turn());
    expect(result.isError).toBe(false);
    expect(readFileSync(join(bench.ws, 'hl.txt'), 'utf8')).toBe('new');
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
  });

  it('refuses a write without content, before anything is touched', async () => {
    for (const args of [{ path: 'x.txt' }, { path: 'x.txt', content: null }]) {
      const ctx = tools.turn();
      const checked = await tools.preflight('write_file', args, ctx);
      expect(checked).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
      expect(checked?.content).toBe('content: is required but was not given');
      expect(await tools.invoke('write_file', args, ctx)).toEqual(checked);
    }
    expect(() => readFileSync(join(bench.ws, 'x.txt'))).toThrow();
  });

  it('writes an empty file when content is empty text', async () => {
    const result = await tools.invoke('write_file', { path: '__init__.py', content: '' }, tools.turn());
    expect(result.content).toBe('Created __init__.py: 0 lines, 0 bytes.');
  });

  it('refuses to replace a folder', async () => {
    mkdirSync(join(bench.ws, 'dir'));
    const result = await tools.invoke('write_file', { path: 'dir', content: 'x' }, tools.turn());
    expect(result.data).toEqual({ code: 'is_folder' });
  });
});

describe('edit_file', () => {
  it('refuses an edit of a file not read in this turn, and says to read it', async () => {
    put('notes.md', 'alpha\nbeta\n');
    const args = { path: 'notes.md', old_text: 'alpha', new_text: 'gamma' };
    const ctx = tools.turn();
    const checked = await tools.preflight('edit_file', args, ctx);
    expect(checked?.content).toBe('notes.md has not been read in this turn, so it cannot be edited yet.');
    expect(checked?.hints?.[0]).toContain('Call read_file');
    expect(await tools.invoke('edit_file', args, ctx)).toEqual(checked);
    // A read in an earlier turn does not count.
    const earlier = tools.turn();
    await tools.invoke('read_file', { path: 'notes.md' }, earlier);
    expect((await tools.invoke('edit_file', args, tools.turn())).data).toEqual({ code: 'not_read' });
    expect(readFileSync(join(bench.ws, 'notes.md'), 'utf8')).toBe('alpha\nbeta\n');
  });

  it('refuses an edit that changes nothing', async () => {
    put('notes.md', 'alpha\n');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'notes.md' }, ctx);
    const result = await tools.invoke(
      'edit_file',
      { path: 'notes.md', old_text: 'alpha', new_text: 'alpha' },
      ctx,
    );
    expect(result).toMatchObject({ isError: true, notRun: 'refused_by_tool', data: { code: 'no_change' } });
    expect(result.content).toContain('identical');
  });

  it('applies an edit after reading, and a second edit in the same turn', async () => {
    const full = put('notes.md', 'alpha\nbeta\n');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'notes.md' }, ctx);
    const first = await tools.invoke(
      'edit_file',
      { path: 'notes.md', old_text: 'beta', new_text: 'BETA' },
      ctx,
    );
    expect(first).toEqual({ content: 'Edited notes.md: replaced 1 match, at line 2.', isError: false });
    const second = await tools.invoke(
      'edit_file',
      { path: 'notes.md', old_text: 'alpha\n', new_text: '' },
      ctx,
    );
    expect(second.isError).toBe(false);
    expect(readFileSync(full, 'utf8')).toBe('BETA\n');
  });

  it('refuses an edit when the file changed after it was read', async () => {
    const full = put('notes.md', 'alpha\n');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'notes.md' }, ctx);
    writeFileSync(full, 'alpha and more\n');
    utimesSync(full, new Date(), new Date(Date.now() + 5000));
    const result = await tools.invoke(
      'edit_file',
      { path: 'notes.md', old_text: 'alpha', new_text: 'x' },
      ctx,
    );
    expect(result.data).toEqual({ code: 'changed_since_read' });
  });

  it('reads replace_all as the word it spells; anything else means one match', async () => {
    const ctx = tools.turn();
    const full = put('twice.txt', 'x x\n');
    await tools.invoke('read_file', { path: 'twice.txt' }, ctx);
    for (const word of ['false', 'no', 'maybe', '', 0]) {
      const result = await tools.invoke(
        'edit_file',
        { path: 'twice.txt', old_text: 'x', new_text: 'y', replace_all: word },
        ctx,
      );
      expect(result.data, String(word)).toEqual({ code: 'ambiguous' });
    }
    const all = await tools.invoke(
      'edit_file',
      { path: 'twice.txt', old_text: 'x', new_text: 'y', replace_all: ' YES ' },
      ctx,
    );
    expect(all.content).toBe('Edited twice.txt: replaced 2 matches, the first at line 1.');
    expect(readFileSync(full, 'utf8')).toBe('y y\n');
  });

  it('refuses text that is not there, and matches a \\r\\n file written with \\n', async () => {
    const full = put('dos.txt', 'one\r\ntwo\r\n');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'dos.txt' }, ctx);
    const missing = await tools.invoke(
      'edit_file',
      { path: 'dos.txt', old_text: 'three', new_text: '3' },
      ctx,
    );
    expect(missing.data).toEqual({ code: 'not_found_text' });
    const crossing = await tools.invoke(
      'edit_file',
      { path: 'dos.txt', old_text: 'one\ntwo', new_text: '1\n2' },
      ctx,
    );
    expect(crossing.isError).toBe(false);
    expect(readFileSync(full, 'utf8')).toBe('1\r\n2\r\n');
  });

  it('refuses to edit a file that is not UTF-8, changing nothing', async () => {
    const latin1 = Buffer.from('caf\xe9 line1\nTODO\nna\xefve\n', 'latin1');
    const full = put('latin1.txt', latin1);
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'latin1.txt' }, ctx);
    const result = await tools.invoke(
      'edit_file',
      { path: 'latin1.txt', old_text: 'TODO', new_text: 'DONE' },
      ctx,
    );
    expect(result.data).toEqual({ code: 'not_utf8' });
    expect(readFileSync(full)).toEqual(latin1);
  });

  it('writes new lines in a \r\n file with \r\n, also when the text replaced has no line break', async () => {
    const full = put('crlf.txt', 'one\r\ntwo\r\nthree\r\n');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'crlf.txt' }, ctx);
    await tools.invoke('edit_file', { path: 'crlf.txt', old_text: 'two', new_text: 'two\nand-a-half' }, ctx);
    expect(readFileSync(full, 'utf8')).toBe('one\r\ntwo\r\nand-a-half\r\nthree\r\n');
    // A mostly-\n file with one \r\n line keeps \n where the edit is.
    const mixed = put('mixed.txt', 'line1\nline2\nquote "a\r\n"\n');
    await tools.invoke('read_file', { path: 'mixed.txt' }, ctx);
    await tools.invoke('edit_file', { path: 'mixed.txt', old_text: 'line1\n', new_text: 'a\nb\n' }, ctx);
    expect(readFileSync(mixed, 'utf8')).toBe('a\nb\nline2\nquote "a\r\n"\n');
  });

  it('gates each edit on a read in this turn, also for a file in another workspace folder', async () => {
    const extra = join(bench.dir, 'extra');
    mkdirSync(extra);
    writeFileSync(join(extra, 'plan.md'), 'step one\n');
    const two = toolsOn(bench, { workspace: [bench.ws, extra] });
    const ctx = two.turn();
    const path = join(extra, 'plan.md');
    const edit = (n: number) =>
      two.invoke('edit_file', { path, old_text: 'step', new_text: `step ${n}` }, ctx);
    expect((await edit(1)).data).toEqual({ code: 'not_read' });
    expect((await edit(2)).data).toEqual({ code: 'not_read' });
    await two.invoke('read_file', { path }, ctx);
    expect((await edit(3)).isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('step 3 one\n');
  });

  it('counts a file it wrote itself as read', async () => {
    const ctx = tools.turn();
    await tools.invoke('write_file', { path: 'new.txt', content: 'draft\n' }, ctx);
    const edit = await tools.invoke(
      'edit_file',
      { path: 'new.txt', old_text: 'draft', new_text: 'final' },
      ctx,
    );
    expect(edit.isError).toBe(false);
  });
});

describe('list_dir, glob and grep', () => {
  beforeEach(() => {
    put('src/app.ts', 'export const Greeting = "hello";\n');
    put('src/util/strings.ts', 'export function shout(s: string) {\n  return s.toUpperCase();\n}\n');
    put('docs/Readme.MD', 'Hello there\nsecond line\n');
    put('node_modules/dep/index.ts', 'hello from a dependency\n');
    put('.git/HEAD', 'ref: hello\n');
  });

  it('list_dir lists folders with a slash, in name order, bounded', async () => {
    const ctx = tools.turn();
    const listed = await tools.invoke('list_dir', {}, ctx);
    expect(listed.content).toBe('.git/\ndocs/\nnode_modules/\nsrc/');
    const bounded = await tools.invoke('list_dir', { limit: 1 }, ctx);
    expect(bounded.content).toBe('.git/\n[1 of 4 entries shown; raise limit or use glob to see others]');
    expect((await tools.invoke('list_dir', { path: 'src/app.ts' }, ctx)).data).toEqual({
      code: 'not_a_folder',
    });
  });

  it('glob matches across folders, skips .git and node_modules unless named, bounded', async () => {
    const ctx = tools.turn();
    expect((await tools.invoke('glob', { pattern: '**/*.ts' }, ctx)).content).toBe(
      'src/app.ts\nsrc/util/strings.ts',
    );
    expect((await tools.invoke('glob', { pattern: '*.ts', path: 'src' }, ctx)).content).toBe('src/app.ts');
    expect((await tools.invoke('glob', { pattern: 'node_modules/**/*.ts' }, ctx)).content).toBe(
      'node_modules/dep/index.ts',
    );
    expect((await tools.invoke('glob', { pattern: 'src/**/*.{ts,md}', limit: 1 }, ctx)).content).toBe(
      'src/app.ts\n[only the first 1 matches are listed; narrow the pattern to see others]',
    );
    expect((await tools.invoke('glob', { pattern: '**/*.md' }, ctx)).content).toBe(
      'No file matches **/*.md.',
    );
  });

  it('glob and grep read ignore_case as the word it spells, and refuse a word that spells neither', async () => {
    const ctx = tools.turn();
    expect((await tools.invoke('glob', { pattern: '**/*.md', ignore_case: 'yes' }, ctx)).content).toBe(
      'docs/Readme.MD',
    );
    for (const tool of ['glob', 'grep']) {
      const args = { pattern: 'x', ignore_case: 'maybe' };
      const checked = await tools.preflight(tool, args, ctx);
      expect(checked?.content).toBe(
        'ignore_case: the text "maybe" reads as neither yes nor no; send true or false',
      );
      expect(await tools.invoke(tool, args, ctx)).toEqual(checked);
    }
  });

  it('grep looks for the text as written unless regex is true', async () => {
    const ctx = tools.turn();
    const literal = await tools.invoke('grep', { pattern: 's.toUpperCase()' }, ctx);
    expect(literal.content).toBe('src/util/strings.ts:2:   return s.toUpperCase();');
    const unreadable = await tools.invoke('grep', { pattern: 'Hel+o', regex: 'maybe' }, ctx);
    expect(unreadable.content).toBe('No line matches (3 files searched).');
    const regex = await tools.invoke('grep', { pattern: 'Hel+o', regex: true }, ctx);
    expect(regex.content).toBe('docs/Readme.MD:1: Hello there');
    const folded = await tools.invoke('grep', { pattern: 'hello', ignore_case: true, include: '*.ts' }, ctx);
    expect(folded.content).toBe('src/app.ts:1: export const Greeting = "hello";');
  });

  it('grep refuses an expression JavaScript cannot read, in preflight and invoke alike', async () => {
    const ctx = tools.turn();
    const args = { pattern: '(unclosed', regex: true };
    const checked = await tools.preflight('grep', args, ctx);
    expect(checked).toMatchObject({ isError: true, data: { code: 'bad_regex' } });
    expect(checked?.content).toContain('pattern is not a regular expression JavaScript can use');
    expect(await tools.invoke('grep', args, ctx)).toEqual(checked);
  });

  it('grep searches one file, and bounds how many lines it shows', async () => {
    put('many.txt', Array.from({ length: 10 }, (_, i) => `hit ${i}`).join('\n'));
    const ctx = tools.turn();
    const result = await tools.invoke('grep', { pattern: 'hit', path: 'many.txt', limit: 2 }, ctx);
    expect(result.content).toBe(
      'many.txt:1: hit 0\nmany.txt:2: hit 1\n[only the first 2 matching lines are shown; narrow the search to see others]',
    );
  });
});
