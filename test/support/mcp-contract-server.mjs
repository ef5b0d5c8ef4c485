// The contract's tools (contract-tools.mjs) on an SDK McpServer: served over stdio when run as a script,
// over Streamable HTTP and in-process by the tests that build it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod/v4';
import { failedOnPurpose, guardedRan, HUGE_CHARS, offLimits, thrownOnPurpose } from './contract-tools.mjs';

const text = (words) => ({ content: [{ type: 'text', text: words }] });

/** Builds the contract server; `name` is what it calls itself. */
export function contractServer(name = 'contract') {
  const server = new McpServer({ name, version: '1.0.0', description: 'The tool-provider contract.' });
  const why = { why: z.string().describe('The reason to give') };
  server.registerTool(
    'echo',
    { description: 'Answers with the text it is given.', inputSchema: { text: z.string() } },
    async ({ text: said }) => text(said),
  );
  server.registerTool(
    'fail',
    { description: 'Reports a tool error, always.', inputSchema: why },
    async (a) => ({
      ...text(failedOnPurpose(a.why)),
      isError: true,
    }),
  );
  server.registerTool('throws', { description: 'Throws, always.', inputSchema: why }, async (a) => {
    throw new Error(thrownOnPurpose(a.why));
  });
  // MCP has no request that asks a server what it would refuse: the refusal comes back from the call.
  server.registerTool(
    'guarded',
    {
      description: 'Runs on a target, refusing the one that is off limits.',
      inputSchema: { target: z.string() },
    },
    async ({ target }) => {
      const refused = offLimits(target);
      return refused === undefined ? text(guardedRan(target)) : { ...text(refused), isError: true };
    },
  );
  // Answers only once the client gives up on the call (it sends a cancellation), so nothing is left behind.
  server.registerTool(
    'hang',
    { description: 'Never answers.' },
    (extra) =>
      new Promise((resolve) =>
        extra.signal.addEventListener('abort', () => resolve(text('given up')), { once: true }),
      ),
  );
  server.registerTool(
    'huge',
    { description: 'Answers with more text than a tool result may hold.' },
    async () => text('x'.repeat(HUGE_CHARS)),
  );
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await contractServer(process.argv[2] ?? 'contract').connect(new StdioServerTransport());
}
