import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/tools/builtin/atomic-write.js';
import { TSX_LOADER } from '../../support/tsx-loader.js';
import { type Bench, makeBench, type Tools, toolsOn } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
let file: string;

beforeEach(async () => {
  bench = await makeBench();
  tools = toolsOn(bench);
  file = join(bench.ws, 'keep.txt');
  writeFileSync(file, 'as it was\n');
  chmodSync(file, 0o444);
});
afterEach(() => bench.cleanup());

describe('a file nobody may write (permissions 0444)', () => {
  it('is refused by write_file before anyone is asked, and stays as it was', async () => {
    const ctx = tools.turn();
    const checked = await tools.preflight('write_file', { path: 'keep.txt', content: 'new' }, ctx);
    expect(checked).toMatchObject({ isError: true, notRun: 'refused_by_tool', data: { code: 'read_only' } });
    expect(checked?.content).toBe(
      'keep.txt is read-only (permissions 0444), so the file tools will not change it.',
    );
    expect(checked?.hints?.[0]).toContain('make the file writable first');
    expect(await tools.invoke('write_file', { path: 'keep.txt', content: 'new' }, ctx)).toEqual(checked);
    expect(readFileSync(file, 'utf8')).toBe('as it was\n');
    expect(statSync(file).mode & 0o777).toBe(0o444);
  });

  it('is refused by edit_file, though it was read in this turn', async () => {
    const ctx = tools.turn();
    expect((await tools.invoke('read_file', { path: 'keep.txt' }, ctx)).isError).toBe(false);
    const edit = { path: 'keep.txt', old_text: 'was', new_text: 'is' };
    expect(await tools.invoke('edit_file', edit, ctx)).toMatchObject({ data: { code: 'read_only' } });
    expect(readFileSync(file, 'utf8')).toBe('as it was\n');
  });

  it('is written once the person makes it writable again', async () => {
    chmodSync(file, 0o644);
    const result = await tools.invoke('write_file', { path: 'keep.txt', content: 'new\n' }, tools.turn());
    expect(result.isError).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });
});

// The system refuses another user a file owned by root with permissions 0644; the tools say so instead of
// replacing it (a rename into the folder would succeed, since the folder lets that user in).
describe.skipIf(process.getuid?.() !== 0)('a file the user toolseam runs as may not write', () => {
  it('is refused, naming its permissions', async () => {
    const shared = join(bench.dir, 'shared');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    chmodSync(bench.dir, 0o755);
    writeFileSync(join(shared, 'root-owned.txt'), 'root wrote this\n', { mode: 0o644 });
    const data = join(bench.dir, 'data');
    mkdirSync(data);
    chownSync(data, 65534, 65534);
    // A module of the source tree, quoted for the child's script.
    const source = (...parts: string[]) =>
      JSON.stringify(join(import.meta.dirname, '..', '..', '..', 'src', ...parts));
    const script = `
const { builtinProviders } = await import(${source('tools', 'builtin', 'index.ts')});
const { makeToolContext } = await import(${source('tools', 'index.ts')});
const { openSessionStore } = await import(${source('store', 'index.ts')});
const store = openSessionStore({ path: ${JSON.stringify(join(data, 'store.sqlite'))} });
const providers = builtinProviders({ workspace: [${JSON.stringify(shared)}], memory: store, tasks: store });
const files = providers.find((p) => p.tools.has('write_file'));
const ctx = makeToolContext({ sessionId: store.createSession({ title: 'other user' }).id });
const result = await files.invoke('write_file', { path: 'root-owned.txt', content: 'replaced' }, ctx);
store.close();
process.stdout.write(JSON.stringify(result));
`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', TSX_LOADER, '--input-type=module', '-e', script],
      { uid: 65534, gid: 65534, cwd: shared },
    );
    const result = JSON.parse(stdout) as { content: string; data: { code: string } };
    expect(result.data.code).toBe('read_only');
    expect(result.content).toBe(
      'root-owned.txt cannot be written by the user toolseam runs as (permissions 0644), so the file tools will not change it.',
    );
    expect(readFileSync(join(shared, 'root-owned.txt'), 'utf8')).toBe('root wrote this\n');
  });
});

/** Runs a system command a test sets up with; false when this machine does not allow it (not root, no tool). */
function tried(command: string, args: readonly string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a file the system keeps from changing, whatever its permissions', () => {
  it('on a file system mounted read-only: refused, saying so', async (t) => {
    const mounted = join(bench.ws, 'mounted');
    mkdirSync(mounted);
    if (!tried('mount', ['-t', 'tmpfs', 'tmpfs', mounted])) return t.skip();
    try {
      writeFileSync(join(mounted, 'notes.txt'), 'kept\n', { mode: 0o644 });
      if (!tried('mount', ['-o', 'remount,ro', mounted])) return t.skip();
      const result = await tools.invoke(
        'write_file',
        { path: 'mounted/notes.txt', content: 'x' },
        tools.turn(),
      );
      expect(result).toMatchObject({ isError: true, data: { code: 'read_only' } });
      expect(result.content).toBe(
        'mounted/notes.txt is on a file system mounted read-only, so the file tools will not change it.',
      );
      expect(result.hints?.[0]).toContain('only mounting that file system writable');
    } finally {
      tried('umount', [mounted]);
    }
  });

  it('marked immutable (chattr +i): refused, naming the lock rather than the permissions', async (t) => {
    const locked = join(bench.ws, 'locked.txt');
    writeFileSync(locked, 'kept\n', { mode: 0o644 });
    if (!tried('chattr', ['+i', locked])) return t.skip();
    try {
      const result = await tools.invoke('write_file', { path: 'locked.txt', content: 'x' }, tools.turn());
      expect(result).toMatchObject({ isError: true, data: { code: 'read_only' } });
      expect(result.content).toContain('locked.txt is locked against changes');
      expect(result.hints?.[0]).toContain('chattr +i');
    } finally {
      tried('chattr', ['-i', locked]);
    }
    expect(readFileSync(locked, 'utf8')).toBe('kept\n');
  });
});

describe('writeFileAtomic, the last moment before the rename', () => {
  it('refuses a file that became read-only after the check, and leaves it as it is', async () => {
    await expect(writeFileAtomic(file, 'new')).rejects.toThrow(
      `${file} became read-only (permissions 0444) before it was written; it was left as it is.`,
    );
    expect(readFileSync(file, 'utf8')).toBe('as it was\n');
  });
});
