import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { conformParameters } from '../../src/seam/index.js';
import { runToolseam } from '../cli/run-toolseam.js';
import { spawnToolseam, until } from '../cli/spawn-toolseam.js';
import { approvalIdIn, firstText, sdkClient, serveFolder } from './serve-process.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

/** `toolseam mcp-serve --http 0` in a fresh folder, and the URL it prints once it listens. */
async function httpServer() {
  const folder = serveFolder();
  cleanups.push(folder.remove);
  const server = spawnToolseam(['mcp-serve', '--http', '0'], folder.dir, folder.env);
  cleanups.push(() => {
    server.proc.kill('SIGKILL');
  });
  await until('the endpoint URL', () => /serving MCP at (\S+)/.test(server.stderr()));
  const url = /serving MCP at (\S+)/.exec(server.stderr())?.[1] as string;
  return { folder, server, url };
}

async function connect(url: string, answer?: Parameters<typeof sdkClient>[0]) {
  const { client, asked } = sdkClient(answer);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, asked, transport };
}

describe('toolseam mcp-serve over Streamable HTTP, with the SDK client', () => {
  it('serves each client session its own toolseam session: list, call, refuse, ask, approve', async () => {
    const { folder, server, url } = await httpServer();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    const asking = await connect(url, () => ({ action: 'accept', content: {} }));
    const { tools } = await asking.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read_file', 'greet', 'post_note']));
    for (const tool of tools) expect(conformParameters(tool.inputSchema).verdict, tool.name).toBe('portable');
    const hello = await asking.client.callTool({ name: 'greet', arguments: { name: 'Cy' } });
    expect(firstText(hello)).toBe('Hello, Cy!');
    const tooLong = await asking.client.callTool({ name: 'greet', arguments: { name: 'C'.repeat(30) } });
    expect(tooLong.isError).toBe(true);
    const posted = await asking.client.callTool({ name: 'post_note', arguments: { text: 'bread' } });
    expect(firstText(posted)).toBe('posted: bread');
    expect(asking.asked).toHaveLength(1);

    const silent = await connect(url);
    const first = await silent.client.callTool({ name: 'post_note', arguments: { text: 'jam' } });
    expect(first.isError).toBe(true);
    const id = approvalIdIn(firstText(first));
    const approved = await runToolseam(['approve', id, 'yes', '--db', folder.db], folder.dir, folder.env);
    expect(approved.code).toBe(0);
    const again = await silent.client.callTool({ name: 'post_note', arguments: { text: 'jam' } });
    expect(firstText(again)).toBe('posted: jam');
    expect(folder.notes()).toEqual(['bread', 'jam']);

    // each connection is a session of its own
    const sessions = await runToolseam(['sessions', '--db', folder.db], folder.dir);
    expect(sessions.stdout.split('MCP: process-client 2.0.0').length - 1).toBe(2);

    // a client that ends its session ends it here too; the server stops on SIGTERM
    await silent.transport.terminateSession();
    server.proc.kill('SIGTERM');
    expect((await server.done).code).toBe(0);
  });
});
