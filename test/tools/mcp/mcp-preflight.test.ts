import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { conformParameters, fillOmittedNulls } from '../../../src/seam/index.js';
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

/** A server with one tool declared by `inputSchema` as written, answering `answer`; records every call. */
function declaring(name: string, tool: string, inputSchema: { type: 'object' }, answer: string) {
  const received: unknown[] = [];
  const build = () => {
    const mcp = new McpServer({ name, version: '1.0.0' });
    mcp.server.registerCapabilities({ tools: {} });
    mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: tool, description: `The ${tool} tool.`, inputSchema }],
    }));
    mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      received.push(request.params.arguments);
      return { content: [{ type: 'text', text: answer }] };
    });
    return mcp;
  };
  const provider = createMcpProvider(inProcess(name, build));
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

  it('says where the JSON text of a list breaks, and sends nothing; a fenced list goes through', async () => {
    const { provider, received } = vault();
    await provider.listTools();
    const name = 'mcp/notes-vault/read_multiple_files';
    const broken = { paths: '["daily/today.md", "plans.md"]]' };
    const refusal = await provider.invoke(name, broken, toolContext());
    expect(refusal.notRun).toBe('mistyped_arguments');
    expect(refusal.content).toContain(
      "- paths: is not valid JSON: found ']' after the end of the JSON value at line 1, column 31",
    );
    expect(refusal.content).not.toContain('expected an array');
    expect(await provider.preflight?.(name, broken, toolContext())).toMatchObject({
      content: refusal.content,
    });
    const fenced = { paths: '```json\n["daily/today.md"]\n```' };
    expect(await provider.preflight?.(name, fenced, toolContext())).toBeUndefined();
    expect(await provider.invoke(name, fenced, toolContext())).toEqual({
      content: 'read 1 file(s)',
      isError: false,
    });
    expect(received).toEqual([{ paths: ['daily/today.md'] }]);
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

  it('lets null through where the schema says `nullable` (OpenAPI), as the seam fills it for a left-out argument', async () => {
    const note = {
      type: 'object' as const,
      properties: { title: { type: 'string' }, folder: { type: 'string', nullable: true } },
      required: ['title', 'folder'],
    };
    const { provider, received } = declaring('openapi-notes', 'create_note', note, 'created');
    const [tool] = await provider.listTools();
    // The offer cannot carry null: `folder` is offered as optional, and left out it stands for null.
    const offered = conformParameters(tool?.parameters).parameters;
    expect(offered?.required).toEqual(['title']);
    const args = fillOmittedNulls(tool?.parameters, { title: 'Plants' });
    expect(args).toEqual({ title: 'Plants', folder: null });
    const name = 'mcp/openapi-notes/create_note';
    expect(await provider.preflight?.(name, args, toolContext())).toBeUndefined();
    expect(await provider.invoke(name, args, toolContext())).toEqual({ content: 'created', isError: false });
    expect(received).toEqual([{ title: 'Plants', folder: null }]);
    // A value of another type is still refused.
    const refusal = await provider.preflight?.(name, { title: 'Plants', folder: 3 }, toolContext());
    expect(refusal?.content).toContain('- folder: expected a string or null, got the number 3');
  });

  it('sends the number a text spells where a type list takes integers and numbers', async () => {
    const pay = {
      type: 'object' as const,
      properties: { amount: { type: ['integer', 'number'] } },
      required: ['amount'],
    };
    const { provider, received } = declaring('ledger', 'pay', pay, 'paid');
    await provider.listTools();
    const result = await provider.invoke('mcp/ledger/pay', { amount: '1.5' }, toolContext());
    expect(result).toEqual({ content: 'paid', isError: false });
    expect(received).toEqual([{ amount: 1.5 }]);
  });
});
