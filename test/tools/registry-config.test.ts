import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolsConfig, readToolsConfig, registryFromConfig } from '../../src/tools/registry-config.js';
import { brokenStdio, notesStdio } from '../support/mcp-servers.js';

const examples = resolve(import.meta.dirname, '..', '..', 'examples', 'apps');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolseam-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function configFile(name: string, data: unknown): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, typeof data === 'string' ? data : JSON.stringify(data));
  return file;
}

describe('the tools part of toolseam.json', () => {
  it('reads servers, apps (relative to the file), switched-off tools and timeouts, ignoring other keys', async () => {
    const notes = notesStdio('notes');
    const file = await configFile('toolseam.json', {
      model: { provider: 'openai' },
      mcpServers: { notes: { command: notes.command, args: notes.args } },
      apps: ['./apps/one', { path: '/opt/apps/two' }, { path: './three', disabled: true }],
      disabledTools: ['mcp/notes/ping'],
      mcpTimeouts: { callMs: 1234 },
    });
    const config = await readToolsConfig(file);
    expect(config).toEqual({
      file,
      mcpServers: [{ name: 'notes', kind: 'stdio', command: notes.command, args: notes.args, env: {} }],
      apps: [join(dir, 'apps', 'one'), '/opt/apps/two'],
      disabledTools: ['mcp/notes/ping'],
      mcpTimeouts: { callMs: 1234 },
    });
  });

  it('treats a missing default file as an empty config, and a missing named file as an error', async () => {
    expect(await readToolsConfig(join(dir, 'absent.json'), { optional: true })).toMatchObject({
      mcpServers: [],
      apps: [],
    });
    await expect(readToolsConfig(join(dir, 'absent.json'))).rejects.toThrow(
      /does not exist; create it or pass --config/,
    );
    await expect(readToolsConfig(await configFile('bad.json', '{ "mcpServers": '))).rejects.toThrow(
      /is not valid JSON/,
    );
  });

  it.each([
    [[], /must hold a JSON object/],
    [{ apps: './apps' }, /"apps" in the config must be a list of app folders/],
    [{ apps: [3] }, /"apps\[0\]" in the config must be a folder path/],
    [
      { apps: ['./apps/a', 'apps/a/'] },
      /"apps\[1\]" in the config lists .*apps\/a again .*list each app folder once/,
    ],
    [{ disabledTools: 'x' }, /"disabledTools" in the config must be a list of tool names/],
    [{ mcpServers: { s: { command: 1 } } }, /"mcpServers\.s": "command" must be a non-empty string/],
  ])('refuses a bad config with a clear error (%j)', (data, message) => {
    expect(() => parseToolsConfig(data)).toThrow(message);
  });

  it('builds a registry in which a broken server and a missing app cost only their own tools', async () => {
    const copy = join(dir, 'pocket-notes-copy');
    await cp(join(examples, 'pocket-notes'), copy, { recursive: true });
    const config = parseToolsConfig(
      {
        mcpServers: {
          notes: { command: notesStdio().command, args: notesStdio().args },
          crashy: {
            command: brokenStdio('crashy', 'crash-at-start').command,
            args: brokenStdio('crashy', 'crash-at-start').args,
          },
        },
        // A second app of the same name, in a folder of its own.
        apps: [join(examples, 'pocket-notes'), join(dir, 'no-such-app'), copy],
        disabledTools: ['notes_find'],
      },
      { baseDir: dir },
    );
    const registry = await registryFromConfig(config);
    try {
      const served = await registry.serve();
      expect(served.tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['mcp/notes/lookup', 'notes_save']),
      );
      expect(served.switchedOff.map((t) => t.name)).toEqual(['notes_find']);
      const failures = Object.fromEntries(served.failures.map((f) => [f.app, f.message]));
      expect(failures.crashy).toContain('the database file notes.db is locked');
      expect(failures['no-such-app']).toContain('the folder does not exist');
      expect(failures['pocket-notes']).toContain('another provider is already named "pocket-notes"');
    } finally {
      await registry.close();
    }
  });

  it.each([
    ['the broken one listed first', true],
    ['the working one listed first', false],
  ])(
    'lets a working app keep its name when a broken app sits in a folder of that name (%s)',
    async (_, brokenFirst) => {
      // A broken manifest leaves the app named after its folder: "pocket-notes", like the working one.
      const broken = join(dir, 'elsewhere', 'pocket-notes');
      await mkdir(broken, { recursive: true });
      await writeFile(join(broken, 'toolseam-app.json'), '{ not json');
      const working = join(examples, 'pocket-notes');
      const config = parseToolsConfig(
        { apps: brokenFirst ? [broken, working] : [working, broken] },
        { baseDir: dir },
      );
      const registry = await registryFromConfig(config);
      try {
        const served = await registry.serve();
        expect(served.tools.map((t) => t.name)).toContain('notes_save');
        const failures = served.failures.filter((f) => f.app === 'pocket-notes');
        expect(failures).toHaveLength(1);
        expect(failures[0]?.message).toContain('is not valid JSON');
        expect(failures[0]?.provider).toBe(broken);
      } finally {
        await registry.close();
      }
    },
  );
});
