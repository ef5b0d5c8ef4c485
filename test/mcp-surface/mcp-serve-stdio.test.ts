import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { conformParameters } from '../../src/seam/index.js';
import { runToolseam } from '../cli/run-toolseam.js';
import { toolseamNodeArgs } from '../cli/spawn-toolseam.js';
import { approvalIdIn, firstText, sdkClient, serveFolder } from './serve-process.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

/** `toolseam mcp-serve` started by the SDK's stdio client transport, as Claude Code or Codex start it. */
async function connect(answer?: Parameters<typeof sdkClient>[0], config: Record<string, unknown> = {}) {
  const folder = serveFolder(config);
  cleanups.push(folder.remove);
  const { client, asked } = sdkClient(answer);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: toolseamNodeArgs(['mcp-serve']),
    cwd: folder.dir,
    env: { ...(process.env as Record<string, string>), ...folder.env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, asked, folder };
}

describe('toolseam mcp-serve over stdio, with the SDK client', () => {
  it('lists portable tools, runs a call, refuses an over-limit one, and records the session', async () => {
    const { client, folder } = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['read_file', 'memory_save', 'task_create', 'greet', 'post_note']),
    );
    expect(names).not.toContain('bash');
    for (const tool of tools) expect(conformParameters(tool.inputSchema).verdict, tool.name).toBe('portable');
    expect(tools.find((t) => t.name === 'greet')?.annotations?.readOnlyHint).toBe(true);

    const hello = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(hello).toMatchObject({ isError: false });
    expect(firstText(hello)).toBe('Hello, Ada!');
    const tooLong = await client.callTool({ name: 'greet', arguments: { name: 'A'.repeat(21) } });
    expect(tooLong.isError).toBe(true);
    expect(firstText(tooLong)).toMatch(/20/);

    const sessions = await runToolseam(['sessions', '--db', folder.db], folder.dir);
    expect(sessions.stdout + sessions.stderr).toContain('MCP: process-client 2.0.0');
  });

  it('puts a question to a client that can ask, and runs the call it accepts', async () => {
    const { client, asked, folder } = await connect(() => ({ action: 'accept', content: {} }));
    const posted = await client.callTool({ name: 'post_note', arguments: { text: 'milk' } });
    expect(firstText(posted)).toBe('posted: milk');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('post_note');
    expect(folder.notes()).toEqual(['milk']);
  });

  it('stores the question for a client that cannot ask; after `toolseam approve`, the identical call runs once', async () => {
    const { client, folder } = await connect();
    const first = await client.callTool({ name: 'post_note', arguments: { text: 'eggs' } });
    expect(first.isError).toBe(true);
    const id = approvalIdIn(firstText(first));
    expect(firstText(first)).toContain(`toolseam approve ${id} yes --db ${folder.db}`);
    expect(folder.notes()).toEqual([]);

    const approved = await runToolseam(['approve', id, 'yes', '--db', folder.db], folder.dir, folder.env);
    expect(approved.code).toBe(0);
    expect(approved.stderr).toContain('the MCP client that asked gets it when it makes the same call again');

    const again = await client.callTool({ name: 'post_note', arguments: { text: 'eggs' } });
    expect(again.isError).toBe(false);
    expect(firstText(again)).toBe('posted: eggs');
    expect(folder.notes()).toEqual(['eggs']);
    const third = await client.callTool({ name: 'post_note', arguments: { text: 'eggs' } });
    expect(third.isError).toBe(true);
    expect(folder.notes()).toEqual(['eggs']);
  });
});
