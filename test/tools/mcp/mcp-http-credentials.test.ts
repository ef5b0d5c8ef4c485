import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const open: McpToolProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

const QUERY_KEY = 'exa-9f3c2a7b5d1e';
const PATH_KEY = 'sk-ak-7Hq2Lm9Xw4Rt8Zp1Vb6Nc3Kd';
const TOKEN = 'ghp_4Yt7Ww2Qe9Rr5Tt1Uu8Ii3Oo';

async function freePort(): Promise<number> {
  const free = createServer();
  free.listen(0, '127.0.0.1');
  await once(free, 'listening');
  const { port } = free.address() as AddressInfo;
  await new Promise((done) => free.close(done));
  return port;
}

function track(provider: McpToolProvider): McpToolProvider {
  open.push(provider);
  return provider;
}

describe("the credentials in an HTTP MCP server's URL and headers", () => {
  it('are hidden when the server cannot be reached, in the failure and in the refused call', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp/${PATH_KEY}/sse?exaApiKey=${QUERY_KEY}&profile=work`;
    const provider = track(createMcpProvider({ name: 'search', kind: 'http', url, headers: {} }));
    const error = (await provider.listTools().catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(`nothing answers at http://127.0.0.1:${port}/mcp/`);
    expect(error.message).toContain('profile=work');
    const refused = await provider.invoke('mcp/search/find', {}, toolContext());
    expect(refused).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    for (const shown of [error.message, refused.content]) {
      expect(shown).not.toContain(QUERY_KEY);
      expect(shown).not.toContain(PATH_KEY);
    }
  });

  it('are hidden when the server turns the start down quoting the token it was sent', async () => {
    const server = createServer((req, res) => {
      res
        .writeHead(401, { 'content-type': 'text/plain' })
        .end(`token ${req.headers.authorization} is revoked`);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const provider = track(
        createMcpProvider({
          name: 'repo',
          kind: 'http',
          url: `http://127.0.0.1:${port}/mcp`,
          headers: { Authorization: `Bearer ${TOKEN}` },
        }),
      );
      const error = (await provider.listTools().catch((e: unknown) => e)) as Error;
      expect(error.message).toContain('is revoked');
      const refused = await provider.invoke('mcp/repo/issues', {}, toolContext());
      for (const shown of [error.message, refused.content]) expect(shown).not.toContain(TOKEN);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
