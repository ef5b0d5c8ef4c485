import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../src/core/logger.js';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { httpServer } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const USER = 'alice-reader';
const PASSWORD = 'p@ss:w0rd-7Hq2Lm9X';
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
const IN_URL = `${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}`;

const open: McpToolProvider[] = [];
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An HTTP notes server that answers only requests carrying `authorization`, and its URL with `userinfo` put in. */
async function guarded(authorization: string, userinfo: string): Promise<string> {
  const server = await httpServer(undefined, ['authorization', authorization]);
  servers.push(server);
  return server.url.replace('http://', `http://${userinfo}@`);
}

describe('an HTTP MCP server URL with user and password in it', () => {
  it('connects, sending them as HTTP Basic authorization', async () => {
    const url = await guarded(BASIC, IN_URL);
    const provider = createMcpProvider({ name: 'web', kind: 'http', url, headers: {} });
    open.push(provider);
    const names = (await provider.listTools()).map((t) => t.name);
    expect(names).toContain('mcp/web/ping');
    expect(await provider.invoke('mcp/web/ping', {}, toolContext())).toMatchObject({
      content: 'pong',
      isError: false,
    });
  });

  it('keeps an Authorization header the config sets instead', async () => {
    const url = await guarded('Bearer tok-5Yt7Ww2Qe9', IN_URL);
    const headers = { authorization: 'Bearer tok-5Yt7Ww2Qe9' };
    const provider = createMcpProvider({ name: 'web', kind: 'http', url, headers });
    open.push(provider);
    expect((await provider.listTools()).length).toBeGreaterThan(0);
  });

  it('never shows them in a failure, a refused call or a log line', async () => {
    const free = createServer();
    free.listen(0, '127.0.0.1');
    await once(free, 'listening');
    const { port } = free.address() as AddressInfo;
    await new Promise((done) => free.close(done));
    const logger = memoryLogger();
    const url = `http://${IN_URL}@127.0.0.1:${port}/mcp`;
    const provider = createMcpProvider({ name: 'web', kind: 'http', url, headers: {} }, { logger });
    open.push(provider);
    const error = (await provider.listTools().catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(`nothing answers at http://127.0.0.1:${port}/mcp`);
    const refused = await provider.invoke('mcp/web/ping', {}, toolContext());
    const logged = logger.records.map((r) => `${r.message} ${JSON.stringify(r.fields ?? {})}`);
    for (const shown of [error.message, refused.content, ...logged]) {
      for (const secret of [USER, PASSWORD, encodeURIComponent(PASSWORD), BASIC.slice(6)]) {
        expect(shown).not.toContain(secret);
      }
    }
  });

  it('turned down by the server, says so without quoting what was sent', async () => {
    const url = await guarded('Basic something-else', IN_URL);
    const provider = createMcpProvider({ name: 'web', kind: 'http', url, headers: {} });
    open.push(provider);
    const error = (await provider.listTools().catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('MCP server "web"');
    for (const secret of [USER, PASSWORD, encodeURIComponent(PASSWORD)]) {
      expect(error.message).not.toContain(secret);
    }
  });
});
