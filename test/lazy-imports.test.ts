import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TSX_LOADER } from './support/tsx-loader.js';

const root = join(import.meta.dirname, '..');
const RECORD = pathToFileURL(join(import.meta.dirname, 'support', 'record-imports.mjs')).href;

/** The packages that cost the most to import, which a program pays for only once it uses them. */
const HEAVY = [
  'openai',
  '@anthropic-ai/sdk',
  '@aws-sdk/',
  '@modelcontextprotocol/sdk',
  'ajv',
  'hono',
  '@hono/',
  // the OpenAPI parser and its dereferencer: loaded only once a contract app is configured
  '@readme/',
  '@apidevtools/',
  // hosted mode's job queue: loaded only when a queue is configured
  'pg-boss',
  // the PostgreSQL driver: loaded only once a postgres:// database is opened
  'pg',
];

/** Runs `args` in a child Node with the TypeScript loader, returning what the child resolved, in order. */
function resolvedBy(
  args: readonly string[],
): Promise<{ code: number | null; urls: string[]; stdout: string }> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, '--import', RECORD, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) =>
    child.once('close', (code) => {
      const urls = stderr
        .split('\n')
        .filter((line) => line.startsWith('resolved: '))
        .map((line) => line.slice('resolved: '.length));
      resolve({ code, urls, stdout });
    }),
  );
}

/** The heavy packages among `urls` (by the folder under node_modules each lies in). */
function heavyIn(urls: readonly string[]): string[] {
  const found = new Set<string>();
  for (const url of urls) {
    const inModules = url.split('/node_modules/').at(-1) ?? '';
    if (!url.includes('/node_modules/')) continue;
    for (const name of HEAVY)
      if (inModules.startsWith(name.endsWith('/') ? name : `${name}/`)) found.add(name);
  }
  return [...found];
}

describe("a program's start loads no SDK it does not use", () => {
  it('importing the package root, making every adapter and an MCP provider, loads no SDK and no ajv', async () => {
    // Made, never used: each SDK waits for its first request or server. The mark goes out once the
    // process has nothing left to do (an import started in the background has ended by then); openai is
    // imported after it on purpose, to show that the record would see an SDK.
    const script = `
      process.on('beforeExit', async () => {
        if (globalThis.marked) return;
        globalThis.marked = true;
        process.stderr.write('resolved: -- root imported --\\n');
        await import('openai');
      });
      const toolseam = await import(${JSON.stringify(pathToFileURL(join(root, 'src', 'index.ts')).href)});
      const local = { apiKey: 'k', model: 'm', baseURL: 'http://127.0.0.1:9/v1' };
      for (const provider of ['openai', 'anthropic', 'mistral']) toolseam.createModelAdapter({ ...local, provider });
      toolseam.createModelAdapter({ provider: 'bedrock', model: 'm', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 's' } });
      toolseam.createMcpProvider({ kind: 'stdio', name: 'unused', command: 'true', args: [], env: {} });`;
    const { code, urls } = await resolvedBy(['--input-type=module', '-e', script]);
    expect(code).toBe(0);
    const mark = urls.indexOf('-- root imported --');
    expect(mark).toBeGreaterThan(0);
    expect(urls.slice(0, mark).some((url) => url.endsWith('/src/index.ts'))).toBe(true);
    expect(heavyIn(urls.slice(0, mark))).toEqual([]);
    // the MCP surface (toolseam mcp-serve) is the CLI's alone: the package root never loads it
    expect(urls.filter((url) => url.includes('/src/mcp-surface/'))).toEqual([]);
    expect(heavyIn(urls.slice(mark))).toEqual(['openai']);
  });

  it('the OpenAPI parser is loaded once a contract app is, and not before', async () => {
    const loader = pathToFileURL(join(root, 'src', 'tools', 'apps', 'load-app.ts')).href;
    const folder = join(root, 'test', 'support', 'contract-openapi', 'petstore');
    const script = `
      const { loadApp } = await import(${JSON.stringify(loader)});
      process.stderr.write('resolved: -- loader imported --\\n');
      const app = await loadApp(${JSON.stringify(folder)});
      process.stdout.write(String((await app.listTools()).length));`;
    const { code, urls, stdout } = await resolvedBy(['--input-type=module', '-e', script]);
    expect(code).toBe(0);
    expect(stdout).toBe('4');
    const mark = urls.indexOf('-- loader imported --');
    expect(mark).toBeGreaterThan(0);
    expect(heavyIn(urls.slice(0, mark))).toEqual([]);
    expect(heavyIn(urls.slice(mark))).toEqual(expect.arrayContaining(['@readme/', 'ajv']));
  });

  it('the PostgreSQL driver is loaded once a postgres:// store is opened, not for a SQLite one', async () => {
    const index = pathToFileURL(join(root, 'src', 'index.ts')).href;
    // Port 1 answers nothing: opening fails after the driver was loaded, with the store's own error.
    const script = `
      const { openStore } = await import(${JSON.stringify(index)});
      const sqlite = await openStore(':memory:');
      await sqlite.close();
      process.stderr.write('resolved: -- sqlite opened --\\n');
      try { await openStore('postgres://postgres@127.0.0.1:1/none'); } catch (error) { process.stdout.write(error.code); }`;
    const { code, urls, stdout } = await resolvedBy(['--input-type=module', '-e', script]);
    expect(code).toBe(0);
    expect(stdout).toBe('store_open_failed');
    const mark = urls.indexOf('-- sqlite opened --');
    expect(mark).toBeGreaterThan(0);
    expect(heavyIn(urls.slice(0, mark))).toEqual([]);
    expect(heavyIn(urls.slice(mark))).toEqual(['pg']);
  });

  it('toolseam --version loads no runtime, store, tools or SDK', async () => {
    const { code, urls, stdout } = await resolvedBy([join(root, 'src', 'cli', 'bin.ts'), '--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
    const ours = urls.filter((url) => url.includes('/src/') && !url.includes('/node_modules/'));
    expect(ours.some((url) => url.endsWith('/src/cli/main.ts'))).toBe(true);
    const heavyAreas = ours.filter((url) =>
      /\/src\/(runtime|store|providers|retrieval|seam|tools\/(registry|builtin|mcp))\//.test(url),
    );
    expect(heavyAreas).toEqual([]);
    expect(heavyIn(urls)).toEqual([]);
  });

  // The bundle the build makes of dist/src (what `import('toolseam')` loads once published).
  const bundle = join(root, 'dist', 'bundle', 'index.js');
  it.skipIf(!existsSync(bundle))(
    'the bundled entry exports what the source does, and importing it loads no SDK and no ajv',
    async () => {
      const script = `
        const bundled = await import(${JSON.stringify(pathToFileURL(bundle).href)});
        const source = await import(${JSON.stringify(pathToFileURL(join(root, 'src', 'index.ts')).href)});
        process.stderr.write('resolved: -- root imported --\\n');
        process.stdout.write(JSON.stringify([Object.keys(bundled).sort(), Object.keys(source).sort()]));`;
      const { code, urls, stdout } = await resolvedBy(['--input-type=module', '-e', script]);
      expect(code).toBe(0);
      const [bundled, source] = JSON.parse(stdout) as [string[], string[]];
      expect(bundled).toEqual(source);
      const mark = urls.indexOf('-- root imported --');
      expect(mark).toBeGreaterThan(0);
      expect(heavyIn(urls.slice(0, mark))).toEqual([]);
    },
  );
});
