import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenStdio, notesStdio } from '../support/mcp-servers.js';
import { toolseamInProcess } from './toolseam-in-process.js';

const root = resolve(import.meta.dirname, '..', '..');
let dir: string;

/** Runs `toolseam tools …` in this process, in `cwd`: its exit code and output. */
function toolseam(args: string[], cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  return toolseamInProcess(['tools', ...args], cwd);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolseam-tools-cli-'));
  const notes = notesStdio();
  const crashy = brokenStdio('crashy', 'crash-at-start');
  await writeFile(
    join(dir, 'toolseam.json'),
    JSON.stringify({
      mcpServers: {
        notes: { command: notes.command, args: notes.args },
        crashy: { command: crashy.command, args: crashy.args },
      },
      apps: [join(root, 'examples', 'apps', 'unit-converter')],
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('toolseam tools', () => {
  it('prints the page in the fixed JSON shape with --json', async () => {
    const { code, stdout } = await toolseam(['--config', join(dir, 'toolseam.json'), '--json']);
    expect(code).toBe(0);
    const page = JSON.parse(stdout) as {
      tools: Array<Record<string, unknown>>;
      failures: Array<Record<string, unknown>>;
    };
    expect(page.tools.find((t) => t.name === 'mcp/notes/search')).toMatchObject({
      wireName: 'mcp_notes_search',
      provider: 'mcp/notes',
      app: 'notes',
      status: 'repaired',
      description: 'Search the notes.',
    });
    expect(page.tools.find((t) => t.name === 'convert_temperature')).toMatchObject({
      status: 'offered',
      app: 'unit-converter',
    });
    expect(page.failures).toEqual([
      { provider: 'mcp/crashy', app: 'crashy', message: expect.stringContaining('notes.db is locked') },
    ]);
  });

  it('reads ./toolseam.json by default and prints a readable page', async () => {
    const { code, stdout } = await toolseam([], dir);
    expect(code).toBe(0);
    expect(stdout.indexOf('files (platform) — ')).toBeLessThan(
      stdout.indexOf('mcp/notes — Keeps short notes and finds them again.'),
    );
    expect(stdout).toContain('  mcp/notes/lookup  (sent as mcp_notes_lookup)');
    expect(stdout).toMatch(
      /Load failures\n {2}mcp\/crashy \(app crashy\): MCP server "crashy" exited while starting/,
    );
  });

  it('shows the platform’s own tools first, and only them when there is no config at all', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'toolseam-empty-'));
    try {
      const { code, stdout } = await toolseam(['--json'], empty);
      expect(code).toBe(0);
      const page = JSON.parse(stdout) as {
        tools: Array<{ name: string; app: string; status: string }>;
        failures: unknown[];
      };
      expect(page.failures).toEqual([]);
      expect(page.tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['read_file', 'bash', 'memory_save', 'task_create', 'ask_user']),
      );
      expect(page.tools.every((t) => t.app === 'toolseam' && t.status === 'offered')).toBe(true);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('warns on stderr of each deny-list or disabledTools entry that matches no tool, and shows denied tools as left out', async () => {
    const notes = notesStdio();
    const crashy = brokenStdio('crashy', 'crash-at-start');
    const file = join(dir, 'deny.json');
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          notes: { command: notes.command, args: notes.args },
          crashy: { command: crashy.command, args: crashy.args },
        },
        denyList: ['Read_file', { tool: 'write_file', reason: 'this machine is read-only' }, 'subagent_run'],
        disabledTools: ['mcp/notes/serch', 'mcp/crashy/wipe'],
      }),
    );
    const { code, stdout, stderr } = await toolseam(['--config', file]);
    expect(code).toBe(0);
    const warnings = stderr.split('\n').filter((line) => line.startsWith('warn config: '));
    expect(warnings).toEqual([
      'warn config: "denyList[0]" in the config ("Read_file") matches no tool, so it refuses nothing; the nearest tool name is "read_file".',
      'warn config: "disabledTools[0]" in the config ("mcp/notes/serch") matches no tool, so it switches nothing off; the nearest tool name is "mcp/notes/search".',
      expect.stringMatching(
        /^warn config: "disabledTools\[1\]" in the config \("mcp\/crashy\/wipe"\) matches no tool, so it switches nothing off; .* \(mcp\/crashy could not list its tools, so it may name one of those\)\.$/,
      ),
    ]);
    expect(stdout).toContain(
      "  write_file\n    left out: the configuration's deny-list refuses it (this machine is read-only)",
    );
    // a name matched in another case refuses nothing: the tool is offered
    expect(stdout).toMatch(/ {2}read_file\n {4}offered/);
  });

  it.each([
    [['--config', '/nonexistent/toolseam.json'], /does not exist; create it or pass --config/],
    [['--colour'], /Unknown option '--colour'\. Run "toolseam tools --help"/],
    [['extra'], /Run "toolseam tools --help"/],
  ])('refuses bad input with one clear line and exit code 2 (%j)', async (args, message) => {
    const { code, stderr } = await toolseam(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
