import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { inProcess } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const open: McpToolProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

/** A notes-vault server that records every call it receives. */
function vault() {
  const received: unknown[] = [];
  const target = inProcess('notes-vault', () => {
    const server = new McpServer({ name: 'notes-vault', version: '1.0.0' });
    server.registerTool(
      'read_multiple_files',
      {
        description: 'Read several files.',
        inputSchema: { paths: z.array(z.string()), depth: z.number().int().optional() },
      },
      async (args) => {
        received.push(args);
        return { content: [{ type: 'text', text: `read ${args.paths.length} file(s)` }] };
      },
    );
    return server;
  });
  const provider = createMcpProvider(target);
  open.push(provider);
  return { provider, received };
}

describe('pre-flight of an MCP tool: the types its input schema declares', () => {
  it('refuses a text where the schema declares a list, before anyone is asked, showing the schema', async () => {
    const { provider, received } = vault();
    await provider.listTools();
    const refusal = await provider.preflight?.(
      'mcp/notes-vault/read_multiple_files',
      { paths: 'daily/today.md' },
      toolContext(),
    );
    expect(refusal).toMatchObject({ isError: true, notRun: 'mistyped_arguments', refusedBy: 'preflight' });
    expect(refusal?.content.startsWith('Error: mcp/notes-vault/read_multiple_files was not run')).toBe(true);
    expect(refusal?.content).toContain('- paths: expected an array, got');
    expect(refusal?.content).toContain('"paths":{"type":"array"');
    // invoke runs the same check first, so nothing reaches the server either way.
    const called = await provider.invoke(
      'mcp/notes-vault/read_multiple_files',
      { paths: 'daily/today.md' },
      toolContext(),
    );
    expect(called.notRun).toBe('mistyped_arguments');
    expect(received).toEqual([]);
  });

  it('lets the JSON text of a list through, and sends the real list', async () => {
    const { provider, received } = vault();
    await provider.listTools();
    const args = { paths: '["daily/today.md","plans.md"]', depth: '2' };
    expect(
      await provider.preflight?.('mcp/notes-vault/read_multiple_files', args, toolContext()),
    ).toBeUndefined();
    const result = await provider.invoke('mcp/notes-vault/read_multiple_files', args, toolContext());
    expect(result).toEqual({ content: 'read 2 file(s)', isError: false });
    expect(received).toEqual([{ paths: ['daily/today.md', 'plans.md'], depth: 2 }]);
  });

  it('names the path of a mistyped item', async () => {
    const { provider } = vault();
    await provider.listTools();
    const refusal = await provider.preflight?.(
      'mcp/notes-vault/read_multiple_files',
      { paths: ['daily.md', 7] },
      toolContext(),
    );
    expect(refusal?.content).toContain('- paths[1]: expected a string, got');
  });

  it('refuses nothing for a tool it has not listed, and sends nothing to find out', async () => {
    const { provider, received } = vault();
    expect(
      await provider.preflight?.('mcp/notes-vault/read_multiple_files', { paths: 3 }, toolContext()),
    ).toBeUndefined();
    expect(provider.connected).toBe(false);
    expect(received).toEqual([]);
  });
});
