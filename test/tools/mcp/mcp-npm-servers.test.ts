import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { npmStdio } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

describe('MCP servers installed from npm, over stdio', () => {
  let everything: McpToolProvider;
  let files: McpToolProvider;
  let folder: string;

  beforeAll(async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), 'toolseam-fs-')));
    await writeFile(join(folder, 'today.md'), 'Water the plants.\n');
    everything = createMcpProvider(
      npmStdio('everything', '@modelcontextprotocol/server-everything', 'dist/index.js'),
    );
    files = createMcpProvider(
      npmStdio('files', '@modelcontextprotocol/server-filesystem', 'dist/index.js', [folder]),
    );
    await Promise.all([everything.listTools(), files.listTools()]);
  });
  afterAll(async () => {
    await Promise.all([everything.close(), files.close()]);
    await rm(folder, { recursive: true, force: true });
  });

  it('lists server-everything and runs its tools: text, numbers sent as text, images, structured content', async () => {
    const names = (await everything.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['mcp/everything/echo', 'mcp/everything/get-sum']));
    expect(everything.loadProblems()).toEqual([]);
    const ctx = toolContext();
    expect(await everything.invoke('mcp/everything/echo', { message: 'hi' }, ctx)).toEqual({
      content: 'Echo: hi',
      isError: false,
    });
    expect((await everything.invoke('mcp/everything/get-sum', { a: 1, b: '2' }, ctx)).content).toContain(
      'is 3',
    );
    const image = await everything.invoke('mcp/everything/get-tiny-image', {}, ctx);
    expect(image.content).toMatch(/\[image: image\/png, [\d.]+ KB — not shown\]/);
    const structured = await everything.invoke(
      'mcp/everything/get-structured-content',
      { location: 'Chicago' },
      ctx,
    );
    expect(structured.data).toMatchObject({ structuredContent: { temperature: expect.any(Number) } });
  });

  it('refuses before asking a call server-everything would reject for its type', async () => {
    const refusal = await everything.preflight?.('mcp/everything/get-sum', { a: 'one', b: 2 }, toolContext());
    expect(refusal).toMatchObject({ isError: true, notRun: 'mistyped_arguments' });
    expect(refusal?.content).toContain('- a: expected a number');
  });

  it('reads and writes through server-filesystem inside its allowed folder', async () => {
    const ctx = toolContext();
    const read = await files.invoke('mcp/files/read_text_file', { path: join(folder, 'today.md') }, ctx);
    expect(read).toMatchObject({ content: 'Water the plants.\n', isError: false });
    const wrote = await files.invoke(
      'mcp/files/write_file',
      { path: join(folder, 'new.md'), content: 'hello' },
      ctx,
    );
    expect(wrote.isError).toBe(false);
    expect(await readFile(join(folder, 'new.md'), 'utf8')).toBe('hello');
  });

  it("hands the server's own refusal of a path outside its folder to the model as a tool error", async () => {
    const result = await files.invoke('mcp/files/read_text_file', { path: '/etc/hostname' }, toolContext());
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Error: .*(denied|outside)/i);
  });

  it('refuses read_multiple_files given one path as text, and takes the JSON text of a list', async () => {
    const ctx = toolContext();
    const path = join(folder, 'today.md');
    const refusal = await files.preflight?.('mcp/files/read_multiple_files', { paths: path }, ctx);
    expect(refusal?.content).toContain('mcp/files/read_multiple_files was not run');
    expect(refusal?.content).toContain('"paths":{');
    expect(
      await files.preflight?.('mcp/files/read_multiple_files', { paths: JSON.stringify([path]) }, ctx),
    ).toBeUndefined();
    const read = await files.invoke('mcp/files/read_multiple_files', { paths: JSON.stringify([path]) }, ctx);
    expect(read.content).toContain('Water the plants.');
  });
});
