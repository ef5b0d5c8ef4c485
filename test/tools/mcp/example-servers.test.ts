import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/config.js';
import { globMatch } from '../../../src/runtime/glob-match.js';
import { type McpStdioServerConfig, parseMcpServers } from '../../../src/tools/mcp/mcp-config.js';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const devDependencies = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: object })
    .devDependencies,
);
const installedServers = devDependencies.filter((d) => d.startsWith('@modelcontextprotocol/server-'));

/** What `npx ARGS` fetches outside any project: the package named by its first word that is not an option. */
function npxPackage(args: readonly string[]): { name: string; rest: readonly string[] } {
  const at = args.findIndex((a) => !a.startsWith('-'));
  const options = args.slice(0, Math.max(at, 0));
  // Other npx options (--package, -c) change what runs: this test would need to learn them.
  expect(
    options.every((o) => o === '-y' || o === '--yes'),
    `npx options ${options.join(' ')}`,
  ).toBe(true);
  expect(at, 'npx names no package').toBeGreaterThanOrEqual(0);
  const spec = args[at] as string;
  // A version after the name (`pkg@1.2.3`, `@scope/pkg@latest`) fetches the same package.
  const name = spec.replace(/(?<=.)@[^/@]*$/, '');
  return { name, rest: args.slice(at + 1) };
}

/**
 * The script npx runs for `name`: outside this repository there is no local bin of that name, so
 * npx fetches the package published under it, and runs its only bin (or the one named after it).
 * Read from the copy installed here as a dev dependency, so no network is needed.
 */
function publishedServer(name: string): string {
  const manifest = join(ROOT, 'node_modules', ...name.split('/'), 'package.json');
  expect(
    existsSync(manifest) && installedServers.includes(name),
    `npx would fetch the package named "${name}": it must be the published name of an MCP server this repository installs (${installedServers.join(', ')}), not the name of its bin`,
  ).toBe(true);
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; bin: string | object };
  expect(pkg.name).toBe(name);
  const bins = typeof pkg.bin === 'string' ? { [name]: pkg.bin } : (pkg.bin as Record<string, string>);
  const entries = Object.entries(bins);
  const bin = entries.length === 1 ? entries[0]?.[1] : bins[name.replace(/^@[^/]+\//, '')];
  expect(bin, `${name} has no bin npx would run`).toBeDefined();
  return join(ROOT, 'node_modules', ...name.split('/'), bin as string);
}

/** Every text in `value` that names a tool of server `server` (`mcp/<server>/…`), wherever it is. */
function toolPatterns(value: unknown, server: string): string[] {
  if (typeof value === 'string') return value.startsWith(`mcp/${server}/`) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => toolPatterns(v, server));
  if (value !== null && typeof value === 'object')
    return Object.values(value).flatMap((v) => toolPatterns(v, server));
  return [];
}

/** The config block of the README's "Configuration" section. */
function readmeConfig(): Record<string, unknown> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /## Configuration[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  return JSON.parse(block as string) as Record<string, unknown>;
}

/**
 * Runs each stdio server of `raw` as npx would outside this repository (its published package's bin,
 * with the config's arguments, in `folder`), and checks every tool name the config gives it is one it has.
 */
async function runServers(
  raw: Record<string, unknown>,
  servers: readonly McpStdioServerConfig[],
  folder: string,
): Promise<Map<string, string[]>> {
  const listed = new Map<string, string[]>();
  for (const server of servers) {
    expect(server.command, `${server.name} is started by npx`).toBe('npx');
    const { name, rest } = npxPackage(server.args);
    const script = publishedServer(name);
    const provider = createMcpProvider({
      ...server,
      command: process.execPath,
      args: [script, ...rest],
      cwd: folder,
    });
    try {
      const names = (await provider.listTools()).map((t) => t.name);
      for (const pattern of toolPatterns(raw, server.name)) {
        expect(
          names.some((n) => globMatch(pattern, n)),
          `${pattern} names no tool of ${name}`,
        ).toBe(true);
      }
      if (server.name === 'files') {
        const allowed = await provider.invoke('mcp/files/list_allowed_directories', {}, toolContext());
        expect(allowed.content).toContain(folder);
      }
      listed.set(server.name, names);
    } finally {
      await provider.close();
    }
  }
  return listed;
}

describe('the MCP servers the examples name, run from a folder outside this repository', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), 'toolseam-example-')));
    expect(relative(ROOT, folder).startsWith('..')).toBe(true);
    await cp(join(ROOT, 'examples'), folder, { recursive: true });
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('examples/toolseam.json: each is a published package npx fetches, whose server takes the args and has the tools named', async () => {
    const file = join(folder, 'toolseam.json');
    const config = readConfig(file, { env: {} });
    const stdio = config.tools.mcpServers.filter((s): s is McpStdioServerConfig => s.kind === 'stdio');
    expect(stdio.map((s) => s.name)).toEqual(['files', 'everything']);
    const listed = await runServers(JSON.parse(readFileSync(file, 'utf8')), stdio, folder);
    expect(listed.get('everything')).toContain('mcp/everything/echo');
    expect(listed.get('files')).toContain('mcp/files/read_text_file');
  }, 120_000);

  it("the README's configuration: the same", async () => {
    const raw = readmeConfig();
    const stdio = parseMcpServers(raw.mcpServers, { baseDir: folder }).filter(
      (s): s is McpStdioServerConfig => s.kind === 'stdio',
    );
    expect(stdio.map((s) => s.name)).toEqual(['files']);
    await runServers(raw, stdio, folder);
  }, 120_000);
});
