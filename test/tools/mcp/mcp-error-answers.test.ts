import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../src/core/logger.js';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { brokenProviders } from '../../support/broken-providers.js';
import { inProcess, statefulHttpServer } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const { broken, track } = brokenProviders();

// The codes the MCP SDK also raises on its own: -32000 for a closed connection, -32001 for its timeout.
const SDK_CODES = [-32000, -32001] as const;

describe("a server's error answer with a code the SDK uses for its own failures", () => {
  it.each(SDK_CODES)(
    '%i to a call is quoted as the server answered it, and the server stays',
    async (code) => {
      const log = memoryLogger();
      const provider = broken('ok', { logger: log });
      const result = await provider.invoke('mcp/ok/answer_error', { code }, toolContext());
      expect(result).toEqual({
        content:
          'Error: MCP server "ok" answered the call to mcp/ok/answer_error with an error: ' +
          `the upstream service refused the request: quota spent (JSON-RPC error ${code}). ` +
          'Whether the call did anything is unknown; check before calling it again.',
        isError: true,
      });
      // Not a crash: nothing stopped, the same connection serves the next call.
      expect(provider.connected).toBe(true);
      expect(log.records.filter((r) => r.level === 'warn')).toEqual([]);
      expect(await provider.invoke('mcp/ok/echo', { text: 'still here' }, toolContext())).toEqual({
        content: '{"text":"still here"}',
        isError: false,
      });
    },
  );

  it.each(SDK_CODES)(
    '%i to tools/list is quoted as its answer, not as an exit or a timeout',
    async (code) => {
      const mode = `list-error${code}`;
      const error = await broken(mode)
        .listTools()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        kind: 'list_failed',
        message: `MCP server "${mode}" answered tools/list with an error: the catalog service is down (JSON-RPC error ${code}).`,
      });
    },
  );

  it.each(SDK_CODES)(
    '%i to initialize is quoted as its answer, not as an exit or a timeout',
    async (code) => {
      const mode = `start-error${code}`;
      const error = await broken(mode)
        .listTools()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'start_failed' });
      expect((error as Error).message).toMatch(
        new RegExp(
          `^MCP server "${mode}" answered initialize with an error: no licence for this machine \\(JSON-RPC error ${code}\\)\\. Run `,
        ),
      );
    },
  );

  it("leaves the SDK's own timeout reported as one, after the server answered -32001 to another call", async () => {
    const provider = broken('ok', { timeouts: { callMs: 300 } });
    const answered = await provider.invoke('mcp/ok/answer_error', { code: -32001 }, toolContext());
    expect(answered.content).toContain('answered the call to mcp/ok/answer_error with an error');
    const silent = await provider.invoke('mcp/ok/wait', {}, toolContext());
    expect(silent.content).toContain('did not answer the call to mcp/ok/wait within 300 ms');
  });

  it("is not taken for toolseam's own stand-in for an answer too large, whatever its data says", async () => {
    const provider = broken('ok');
    const result = await provider.invoke(
      'mcp/ok/answer_error',
      { code: -32603, forged: true },
      toolContext(),
    );
    expect(result.content).toContain('answered the call to mcp/ok/answer_error with an error');
    expect(result.data).toBeUndefined();
  });
});

/** A server on the SDK whose one tool is answered with an McpError of `code`. */
function refusing(code: number): McpServer {
  const mcp = new McpServer({ name: 'quota', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'fetch', description: 'Fetches a page.', inputSchema: { type: 'object' } }],
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, () => {
    throw new McpError(code, 'the monthly quota is spent');
  });
  return mcp;
}

describe('the same answer from servers built on the SDK', () => {
  let stopHttp: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stopHttp?.();
    stopHttp = undefined;
  });

  it.each(SDK_CODES)('over Streamable HTTP, %i is the server answering', async (code) => {
    const server = await statefulHttpServer(() => refusing(code));
    stopHttp = server.stop;
    const provider = track(createMcpProvider({ name: 'web', kind: 'http', url: server.url, headers: {} }));
    const result = await provider.invoke('mcp/web/fetch', {}, toolContext());
    expect(result.content).toBe(
      `Error: MCP server "web" answered the call to mcp/web/fetch with an error: the monthly quota is spent (JSON-RPC error ${code}). ` +
        'Whether the call did anything is unknown; check before calling it again.',
    );
    expect(provider.connected).toBe(true);
    expect(server.sessions()).toBe(1);
  });

  it.each(SDK_CODES)('in process, %i is the server answering', async (code) => {
    const provider = track(createMcpProvider(inProcess('local', () => refusing(code))));
    const result = await provider.invoke('mcp/local/fetch', {}, toolContext());
    expect(result.content).toContain(
      'answered the call to mcp/local/fetch with an error: the monthly quota is spent',
    );
    expect(provider.connected).toBe(true);
  });
});
