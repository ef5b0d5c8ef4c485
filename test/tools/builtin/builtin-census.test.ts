import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_GROUPS } from '../../../src/tools/builtin/index.js';
import { assertPortableAsDeclared, declaredBooleans, type InProcessTool } from '../../../src/tools/index.js';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

function allTools(): InProcessTool[] {
  return tools.providers.flatMap((provider) => [...provider.tools.values()]);
}

/**
 * Every boolean a built-in declares, and how an unreadable word reads. A tool that starts declaring another
 * fails here until someone reads it on purpose (as the word it spells, with a safe value or a refusal).
 */
const BOOLEAN_CENSUS = [
  { key: 'edit_file.replace_all', kind: 'boolean', safe: false },
  { key: 'glob.ignore_case', kind: 'boolean' },
  { key: 'grep.ignore_case', kind: 'boolean' },
  { key: 'grep.regex', kind: 'boolean', safe: false },
];

/** The least a call of each censused tool needs, so one boolean at a time can be tried. */
const BASE_ARGS: Record<string, Record<string, unknown>> = {
  edit_file: { path: 'a.txt', old_text: 'a', new_text: 'b' },
  glob: { pattern: '*' },
  grep: { pattern: 'x' },
};

describe('the boolean census of the built-in tools', () => {
  it('pins every boolean every built-in declares, from the field specs and from the listed schemas', async () => {
    const fromSpecs = declaredBooleans(allTools()).map(({ key, kind, safe }) => ({
      key,
      kind,
      ...(safe === undefined ? {} : { safe }),
    }));
    expect(fromSpecs).toEqual(BOOLEAN_CENSUS);
    const listed = (await Promise.all(tools.providers.map((p) => p.listTools()))).flat();
    expect(declaredBooleans(listed).map((b) => b.key)).toEqual(BOOLEAN_CENSUS.map((b) => b.key));
  });

  it('reads each one as the word it spells; a word that spells neither is its safe value or refused naming it', () => {
    const byName = new Map(allTools().map((t) => [t.name, t]));
    for (const { key, safe } of BOOLEAN_CENSUS) {
      const [toolName, field] = key.split('.') as [string, string];
      const tool = byName.get(toolName)!;
      const read = (value: unknown) => tool.read({ ...BASE_ARGS[toolName], [field]: value });
      for (const word of [false, 'false', 'no', 'off', '0', ' N ']) {
        expect(read(word), `${key}=${String(word)}`).toMatchObject({ ok: true, args: { [field]: false } });
      }
      for (const word of [true, 'true', 'yes', ' TRUE ', 'on', '1', 'y']) {
        expect(read(word), `${key}=${String(word)}`).toMatchObject({ ok: true, args: { [field]: true } });
      }
      for (const word of ['maybe', '', 2, ['yes']]) {
        const reading = read(word);
        if (safe === undefined) {
          expect(reading.ok, `${key}=${JSON.stringify(word)}`).toBe(false);
          if (!reading.ok)
            expect(reading.problems).toMatchObject([{ path: field, code: 'unreadable_boolean' }]);
        } else
          expect(reading, `${key}=${JSON.stringify(word)}`).toMatchObject({
            ok: true,
            args: { [field]: safe },
          });
      }
    }
  });
});

describe('the rail: every built-in is portable as declared', () => {
  it('needs no repair, lift or exclusion from the seam', async () => {
    expect(() => assertPortableAsDeclared(allTools())).not.toThrow();
    const listed = (await Promise.all(tools.providers.map((p) => p.listTools()))).flat();
    expect(() => assertPortableAsDeclared(listed)).not.toThrow();
    expect(listed).toHaveLength(14);
    for (const tool of listed) expect(tool.description.trim(), tool.name).not.toBe('');
  });
});

/** Each built-in: its group, risk, whether it only reads and whether it asks before it runs. */
const CATALOGUE: Record<string, { group: string; risk: string; readOnly: boolean; asks: boolean }> = {
  read_file: { group: 'files', risk: 'safe', readOnly: true, asks: false },
  write_file: { group: 'files', risk: 'caution', readOnly: false, asks: true },
  edit_file: { group: 'files', risk: 'caution', readOnly: false, asks: true },
  list_dir: { group: 'files', risk: 'safe', readOnly: true, asks: false },
  glob: { group: 'files', risk: 'safe', readOnly: true, asks: false },
  grep: { group: 'files', risk: 'safe', readOnly: true, asks: false },
  bash: { group: 'shell', risk: 'destructive', readOnly: false, asks: true },
  memory_save: { group: 'memory', risk: 'safe', readOnly: false, asks: false },
  memory_recall: { group: 'memory', risk: 'safe', readOnly: true, asks: false },
  memory_list: { group: 'memory', risk: 'safe', readOnly: true, asks: false },
  task_create: { group: 'tasks', risk: 'safe', readOnly: false, asks: false },
  task_list: { group: 'tasks', risk: 'safe', readOnly: true, asks: false },
  task_update: { group: 'tasks', risk: 'safe', readOnly: false, asks: false },
  ask_user: { group: 'conversation', risk: 'safe', readOnly: true, asks: false },
};

describe('the built-in providers', () => {
  it('are one own provider per group, under the app toolseam, each group with its purpose', async () => {
    expect(tools.providers.map((p) => [p.name, p.app, p.own])).toEqual([
      ['builtin/files', 'toolseam', true],
      ['builtin/shell', 'toolseam', true],
      ['builtin/memory', 'toolseam', true],
      ['builtin/tasks', 'toolseam', true],
      ['builtin/conversation', 'toolseam', true],
    ]);
    for (const group of Object.values(BUILTIN_GROUPS)) {
      expect(group.own).toBe(true);
      expect(group.purpose.length).toBeGreaterThan(20);
    }
  });

  it('list each tool with the group, risk, read-only mark and asking the catalogue says', async () => {
    const listed = (await Promise.all(tools.providers.map((p) => p.listTools()))).flat();
    const seen = Object.fromEntries(
      listed.map((t) => [
        t.name,
        { group: t.group?.key, risk: t.risk, readOnly: t.readOnly === true, asks: t.requiresApproval },
      ]),
    );
    expect(seen).toEqual(CATALOGUE);
    for (const tool of listed)
      expect(tool.group).toBe(BUILTIN_GROUPS[tool.group?.key as keyof typeof BUILTIN_GROUPS]);
  });
});

describe('each built-in’s preflight refuses exactly what its invoke refuses', () => {
  beforeEach(() => {
    mkdirSync(join(bench.ws, 'docs'));
    writeFileSync(join(bench.ws, 'docs', 'a.txt'), 'alpha\nalpha\n');
  });

  /** Calls that are refused, and calls that are not (preflight passes them and invoke runs them). */
  const CASES: Array<[tool: string, args: Record<string, unknown>, refused: string | undefined]> = [
    ['read_file', { path: '../x' }, 'outside_workspace'],
    ['read_file', { path: 'docs/a.txt' }, undefined],
    ['write_file', { path: 'toolseam.json', content: '{}' }, 'owner_only'],
    ['write_file', { path: 'docs/b.txt', content: 'b' }, undefined],
    ['edit_file', { path: 'docs/a.txt', old_text: 'alpha', new_text: 'beta' }, 'not_read'],
    ['edit_file', { path: 'docs/a.txt', old_text: 'same', new_text: 'same' }, 'no_change'],
    ['list_dir', { path: 'nowhere' }, 'not_found'],
    ['list_dir', { path: 'docs' }, undefined],
    ['glob', { pattern: 'docs/{a,b' }, 'bad_glob'],
    ['glob', { pattern: '/etc/*', path: 'docs' }, 'two_starts'],
    ['glob', { pattern: 'docs/*.txt' }, undefined],
    ['grep', { pattern: '[', regex: true }, 'bad_regex'],
    ['grep', { pattern: 'x', include: '{' }, 'bad_glob'],
    ['grep', { pattern: '[' }, undefined],
    ['bash', { command: 'cat ~/.aws/credentials' }, 'credential_path'],
    ['bash', { command: 'echo fine' }, undefined],
    ['memory_recall', { query: '...' }, 'no_words'],
    ['memory_save', { text: 'A fact' }, undefined],
    ['task_update', { id: 'task_x' }, 'no_change'],
    ['task_create', { tasks: [{ title: 'A task' }] }, undefined],
    ['ask_user', { question: 'Well?' }, 'unattended'],
  ];

  it.each(CASES)('%s %j', async (tool, args, refused) => {
    const ctx = tools.turn();
    const checked = await tools.preflight(tool, args, ctx);
    const result = await tools.invoke(tool, args, ctx);
    if (refused === undefined) {
      expect(checked).toBeUndefined();
      expect(result.notRun).toBeUndefined();
    } else {
      expect(checked).toMatchObject({ isError: true, notRun: 'refused_by_tool', data: { code: refused } });
      expect(result).toEqual(checked);
    }
  });

  it('covers every built-in', () => {
    expect(new Set(CASES.map(([tool]) => tool))).toEqual(
      new Set([...Object.keys(CATALOGUE)].filter((t) => t !== 'memory_list' && t !== 'task_list')),
    );
  });
});
