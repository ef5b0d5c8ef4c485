import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir: string;
let db: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-switches-'));
  db = join(dir, 'switches.db');
  writeFileSync(
    join(dir, 'toolseam.json'),
    JSON.stringify({ disabledTools: ['memory_save'], denyList: [{ tool: 'read_*', reason: 'not here' }] }),
  );
  await openSessionStore({ path: db }).close();
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function tools(...args: string[]) {
  return toolseamInProcessWithoutKeys(['tools', '--db', db, ...args], dir, { HOME: dir });
}

async function inStore<T>(work: (store: ReturnType<typeof openSessionStore>) => Promise<T>): Promise<T> {
  const store = openSessionStore({ path: db });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

describe('toolseam tools --off / --on', () => {
  it('stores a switch the page then shows, and switches it back on', async () => {
    const off = await tools('--off', 'task_create', '--off', 'task_list');
    expect(off.stderr).toBe('');
    expect(off.code).toBe(0);
    expect(off.stdout).toContain(
      'task_create: switched off; the next turn of every toolseam on this database goes without it',
    );
    expect(off.stdout).toContain('`toolseam tools --on task_list` switches it back on');
    const stored = await inStore((s) => s.listToolSwitches());
    expect(stored.map((s) => [s.tool, s.on, s.changedBy])).toEqual([
      ['task_create', false, 'cli'],
      ['task_list', false, 'cli'],
    ]);

    const page = await tools();
    expect(page.code).toBe(0);
    expect(page.stdout).toContain('Switched off (stored in the session database');
    expect(page.stdout).toMatch(
      / {2}task_create {2}since \S+ by cli; switch on: toolseam tools --on task_create/,
    );
    const json = JSON.parse((await tools('--json')).stdout) as {
      tools: { name: string; on: boolean; fixed: string | null; status: string }[];
      switches: { tool: string; on: boolean }[];
    };
    const row = (name: string) => json.tools.find((t) => t.name === name);
    expect(row('task_create')).toMatchObject({ on: false, fixed: null, status: 'excluded' });
    expect(row('task_update')).toMatchObject({ on: true, fixed: null });
    expect(row('memory_save')).toMatchObject({ on: false, fixed: 'disabledTools' });
    expect(row('read_file')).toMatchObject({ on: false, fixed: 'denyList' });
    expect(json.switches.map((s) => s.tool)).toEqual(['task_create', 'task_list']);

    const on = await tools('--on', 'task_create');
    expect(on.code).toBe(0);
    expect(on.stdout).toContain(
      'task_create: switched on; the next turn of every toolseam on this database may offer it',
    );
    expect((await inStore((s) => s.listToolSwitches())).map((s) => [s.tool, s.on])).toEqual([
      ['task_list', false],
      ['task_create', true],
    ]);
    expect(
      JSON.parse((await tools('--json')).stdout).tools.find(
        (t: { name: string }) => t.name === 'task_create',
      ),
    ).toMatchObject({
      on: true,
    });
  });

  it('switching on lifts a quarantine, on every model', async () => {
    await inStore(async (s) => {
      await s.quarantineTools({
        provider: 'openai-compatible',
        model: 'a',
        tools: ['task_create'],
        said: 'bad schema',
      });
      await s.quarantineTools({ provider: 'anthropic', model: 'b', tools: ['task_create'], said: 'bad too' });
    });
    const on = await tools('--on', 'task_create');
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(
      /^task_create: offered again on openai-compatible model "a" \(it had said: bad schema\)/,
    );
    expect(on.stdout).toContain('task_create: offered again on anthropic model "b"');
    expect(on.stdout).toContain('one the provider refuses again is quarantined again');
    expect(await inStore((s) => s.listQuarantined())).toEqual([]);
  });

  it('refuses an unknown name with the nearest one, and a tool the config fixes naming the key, storing nothing', async () => {
    const typo = await tools('--off', 'task_craete');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'There is no tool named "task_craete", so nothing was switched. Did you mean "task_create"?',
    );
    const fixed = await tools('--on', 'memory_save');
    expect(fixed.code).toBe(2);
    expect(fixed.stderr).toContain(
      '"memory_save" is switched off by "disabledTools" in toolseam\'s configuration',
    );
    expect(fixed.stderr).toContain('take it out of "disabledTools"');
    const denied = await tools('--off', 'task_list', '--off', 'read_file');
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('deny-list rule "read_*"');
    expect(denied.stderr).toContain('It is off already, and stays off whatever a switch says.');
    const both = await tools('--on', 'task_list', '--off', 'task_list');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('task_list is named by both --on and --off');
    // checked before any switch was stored: task_list, named before read_file, was not switched either
    expect(await inStore((s) => s.listToolSwitches())).toEqual([]);
  });
});
