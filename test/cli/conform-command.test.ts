import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { STRICT_WIRE_NAME, strictProblems } from '../seam/strict-profile.js';
import { toolseamNodeArgs } from './spawn-toolseam.js';
import { toolseamInProcess } from './toolseam-in-process.js';

const root = resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'toolseam-conform-'));

/** Runs `toolseam conform …` as a user would: its exit code and output. */
async function conform(
  args: string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const child = run(process.execPath, toolseamNodeArgs(['conform', ...args]), {
      cwd: root,
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    child.child.stdin?.end(input ?? '');
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function write(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

interface Report {
  offered: {
    name: string;
    wireName: string;
    description: string;
    parameters: unknown;
    repairs: { rule: string; path: string; detail: string }[];
    lifted: string[];
  }[];
  excluded: { name: string; reason: string; issues: { rule: string; path: string; detail: string }[] }[];
}

/** Runs the same command in this process (quicker), capturing what it writes. */
function conformInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return toolseamInProcess(['conform', ...args], root);
}

describe('toolseam conform', () => {
  it('prints exactly the fixed JSON shape for the bundled example, every offered tool portable', async () => {
    const { code, stdout, stderr } = await conformInProcess(['examples/mcp-tools.json', '--json']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const report = JSON.parse(stdout) as Report;
    expect(Object.keys(report)).toEqual(['offered', 'excluded']);
    for (const tool of report.offered) {
      expect(Object.keys(tool)).toEqual([
        'name',
        'wireName',
        'description',
        'parameters',
        'repairs',
        'lifted',
      ]);
      expect(strictProblems(tool.parameters)).toEqual([]);
      expect(tool.wireName).toMatch(STRICT_WIRE_NAME);
      expect(tool.description.trim()).not.toBe('');
      for (const r of tool.repairs) expect(Object.keys(r)).toEqual(['rule', 'path', 'detail']);
    }
    for (const tool of report.excluded) expect(Object.keys(tool)).toEqual(['name', 'reason', 'issues']);
    const byName = new Map(report.offered.map((t) => [t.name, t]));
    expect(byName.get('search_notes')?.repairs).toEqual([]);
    expect(byName.get('create_note')?.repairs.length).toBeGreaterThan(0);
    expect(byName.get('query_notes')?.lifted).toEqual(['filter', 'sort', 'value']);
    expect(byName.get('outline_note')?.lifted).toEqual(['outline.children']);
    expect(byName.get('ping')?.description).toContain('no description of its own');
    expect(report.excluded.map((t) => [t.name, t.reason])).toEqual([
      ['export_note', 'no_portable_form'],
      ['', 'no_name'],
      ['tool_search', 'shadows_runtime_tool'],
      ['notes.archive', 'name_collision'],
    ]);
  });

  it('prints a readable report by default', async () => {
    const { code, stdout } = await conformInProcess(['examples/mcp-tools.json']);
    expect(code).toBe(0);
    expect(stdout).toContain('examples/mcp-tools.json: 13 tools');
    expect(stdout).toContain(
      'offered 9: 4 as declared, 2 repaired, 3 with arguments as JSON text; left out 4',
    );
    expect(stdout).toMatch(
      /\n {2}query_notes {2}\(with JSON-text arguments\)\n {6}as JSON text: filter, sort, value\n/,
    );
    expect(stdout).toContain('export_note  (no portable schema can carry it)');
    expect(stdout).toContain("tool_search  (it would shadow the runtime's own tool)");
  });

  it('names a corpus file’s tools as the runtime names an MCP server’s, unless told otherwise', async () => {
    const corpus = JSON.parse(
      gunzipSync(
        readFileSync(join(root, 'test/seam/corpus/mcp-tools/modelcontextprotocol__server-github.json.gz')),
      ).toString(),
    );
    const file = write('github.json', corpus);
    const named = JSON.parse((await conformInProcess([file, '--json'])).stdout) as Report;
    expect(named.offered[0]?.name).toBe('mcp/modelcontextprotocol__server-github/create_or_update_file');
    expect(named.offered[0]?.wireName).toBe('mcp_modelcontextprotocol__server-github_create_or_update_file');
    const renamed = JSON.parse(
      (await conformInProcess([file, '--json', '--server', 'github'])).stdout,
    ) as Report;
    expect(renamed.offered[0]?.wireName).toBe('mcp_github_create_or_update_file');
    expect(renamed.offered).toHaveLength(corpus.tools.length);
  });

  it('exits with code 2 and one line on stderr for a file that is not there (as a real process)', async () => {
    const { code, stdout, stderr } = await conform(['missing.json']);
    expect([code, stdout, stderr]).toEqual([
      2,
      '',
      'toolseam conform: cannot read missing.json: no such file.\n',
    ]);
  });

  it('reads the tool list from standard input when the file is "-" (as a real process)', async () => {
    const list = JSON.stringify({ tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] });
    const { code, stdout, stderr } = await conform(['-'], list);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toMatch(/^standard input: 1 tool from provider "stdin"\n/);
    const json = await conform(['-', '--json'], '[{"name": "a b"}]');
    expect((JSON.parse(json.stdout) as Report).offered.map((t) => [t.name, t.wireName])).toEqual([
      ['a b', 'a_b'],
    ]);
    const empty = await conform(['-'], '');
    expect([empty.code, empty.stderr]).toEqual([
      2,
      'toolseam conform: standard input is empty: pipe a tool list into it, or give a file.\n',
    ]);
  });

  it('reads a file saved with a byte-order mark', async () => {
    const file = join(dir, 'bom.json');
    writeFileSync(file, `\uFEFF${JSON.stringify([{ name: 'lookup', parameters: { type: 'object' } }])}`);
    const result = await conformInProcess([file, '--json']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Report).offered.map((t) => t.name)).toEqual(['lookup']);
  });

  it('reads a .json.gz file as the JSON it compresses; a .gz that is not gzip gets one line', async () => {
    const file = join(dir, 'tools.json.gz');
    writeFileSync(
      file,
      gzipSync(JSON.stringify({ tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] })),
    );
    const result = await conformInProcess([file, '--json']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Report).offered.map((t) => t.name)).toEqual(['lookup']);
    const plain = write('plain.json.gz', '{"tools": []}');
    const bad = await conformInProcess([plain]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^toolseam conform: .*plain\.json\.gz ends in \.gz but is not gzip data .*\n$/,
    );
  });

  it('reads a bare array with `parameters`', async () => {
    const file = write('bare.json', [
      {
        name: 'lookup',
        parameters: { type: 'object', properties: { q: { type: 'string', format: 'uri' } } },
      },
    ]);
    const report = JSON.parse((await conformInProcess([file, '--json'])).stdout) as Report;
    expect(report.offered.map((t) => [t.name, t.repairs.map((r) => r.rule)])).toEqual([
      ['lookup', ['format_unsupported']],
    ]);
  });

  it.each([
    [['missing.json'], 'cannot read missing.json: no such file.'],
    [[write('broken.json', '{"tools": [')], 'is not valid JSON'],
    [[write('shape.json', { server: 'x' })], 'is not a tool list'],
    [[write('entry.json', { tools: [{ name: 'ok' }, 'nope'] })], 'tools[1] is not an object.'],
    [[write('name.json', { tools: [{ name: 42 }] })], 'tools[0].name must be a string, not 42.'],
    [[], 'give exactly one tool list file'],
    [['examples/mcp-tools.json', '--colour'], "Unknown option '--colour'"],
    [['examples/mcp-tools.json', '--server', ' '], '--server needs a non-empty name.'],
  ])('refuses bad input %j with one clear line and exit code 2', async (args, message) => {
    const { code, stdout, stderr } = await conformInProcess(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^toolseam conform: /);
    expect(stderr).toContain(message);
  });
});
