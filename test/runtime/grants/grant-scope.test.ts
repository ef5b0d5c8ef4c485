import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ToolDefinition } from '../../../src/core/tool.js';
import { offeredScope, type ScopedCall, scopeCovers } from '../../../src/runtime/grants/grant-scope.js';

function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolseam-scope-')));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const tool = (grantScope: unknown, keySpellings = false): ToolDefinition =>
  ({
    name: 't',
    description: 'A tool.',
    parameters: {},
    risk: 'caution',
    requiresApproval: true,
    ...(keySpellings ? { keySpellings: true } : {}),
    ...(grantScope === undefined ? {} : { grantScope }),
  }) as ToolDefinition;

const call = (definition: ToolDefinition, args: Record<string, unknown>, dir = '/'): ScopedCall => ({
  tool: 't',
  definition,
  args: args as never,
  workspace: [dir],
});

describe('the scope offered for a call, and which calls it covers', () => {
  it('a rule a raw app wrote malformed counts as none: exactly the same arguments', async () => {
    for (const rule of [
      { kind: 'command', argument: 5 },
      { kind: 'command' },
      { kind: 'arguments', names: 'to' },
      { kind: 'arguments', names: [1] },
      { kind: 'everything' },
      'command',
      null,
    ]) {
      const def = tool(rule);
      const scope = await offeredScope(call(def, { command: 'ls', to: 'a' }));
      expect(scope.kind).toBe('exact-arguments');
      expect(await scopeCovers(scope, call(def, { command: 'ls', to: 'a' }))).toBe(true);
      expect(await scopeCovers(scope, call(def, { command: 'ls', to: 'b' }))).toBe(false);
    }
  });

  it('a command argument that is not text, or is missing, falls back to exactly these arguments', async () => {
    const def = tool({ kind: 'command', argument: 'command' });
    expect((await offeredScope(call(def, { command: ['rm', '-rf'] }))).kind).toBe('exact-arguments');
    expect((await offeredScope(call(def, {}))).kind).toBe('exact-arguments');
    const scope = await offeredScope(call(def, { command: 'ls' }));
    expect(await scopeCovers(scope, call(def, { command: 42 }))).toBe(false);
    // A grant for a command never covers a tool whose rule is no longer a command rule.
    expect(await scopeCovers(scope, call(tool(undefined), { command: 'ls' }))).toBe(false);
  });

  it('a tool that reads any spelling of its keys is read the same way, and two spellings at once cover nothing', async () => {
    const def = tool({ kind: 'command', argument: 'command' }, true);
    const scope = await offeredScope(call(def, { Command: 'git status' }));
    expect(scope).toMatchObject({ kind: 'command', words: ['git', 'status'] });
    expect(await scopeCovers(scope, call(def, { COMMAND: 'git status -s' }))).toBe(true);
    expect(await scopeCovers(scope, call(def, { command: 'git status', Command: 'rm -rf /' }))).toBe(false);
    expect((await offeredScope(call(def, { command: 'ls', Command: 'rm' }))).kind).toBe('exact-arguments');
    // A tool that reads only its own keys: another spelling is another argument.
    const own = tool({ kind: 'command', argument: 'command' });
    expect(await scopeCovers(scope, call(own, { Command: 'git status' }))).toBe(false);
  });

  it('declared scope arguments: a left-out one is null, and matches only null or left out again', async () => {
    const def = tool({ kind: 'arguments', names: ['to', 'cc'] });
    const scope = await offeredScope(call(def, { to: 'ann', body: 'hi' }));
    expect(scope).toEqual({
      kind: 'arguments',
      values: { cc: null, to: 'ann' },
      summary: 'run t with cc = null, to = "ann" (any other arguments)',
    });
    expect(await scopeCovers(scope, call(def, { to: 'ann', body: 'other', cc: null }))).toBe(true);
    expect(await scopeCovers(scope, call(def, { to: 'ann', cc: 'bob' }))).toBe(false);
    expect(await scopeCovers(scope, call(def, { to: { name: 'ann' } }))).toBe(false);
  });

  it('a folder is where the path really leads: .., ~ and links are resolved', async () => {
    const dir = workspace();
    mkdirSync(join(dir, 'notes'));
    mkdirSync(join(dir, 'away'));
    symlinkSync(join(dir, 'away'), join(dir, 'link'));
    const def = tool({ kind: 'folder', argument: 'path' });
    const scope = await offeredScope(call(def, { path: 'notes/a.md' }, dir));
    expect(scope).toMatchObject({ kind: 'folder', folder: join(dir, 'notes') });
    const covers = async (path: string) => scopeCovers(scope, call(def, { path }, dir));
    expect(await covers('notes/b.md')).toBe(true);
    expect(await covers(join(dir, 'notes', 'c.md'))).toBe(true);
    expect(await covers('away/../notes/d.md')).toBe(true);
    expect(await covers('notes/sub/e.md')).toBe(false);
    expect(await covers('notes/../f.md')).toBe(false);
    expect(await covers('link/g.md')).toBe(false);
    expect(await covers('~/h.md')).toBe(false);
    expect(await covers('notes/\u0000.md')).toBe(false);
    const root = await offeredScope(call(def, { path: 'top.md' }, dir));
    expect(root.summary).toBe('run t on files directly in `./` (not in its subfolders)');
    expect((await offeredScope(call(def, { path: '' }, dir))).kind).toBe('exact-arguments');
  });
});
