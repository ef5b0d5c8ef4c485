// An MCP server over stdio with one slow and one quick step, for the hosted tests: each run appends
// `start <tag> <pid>` and, once finished, `done <tag> <pid>` to the log, where pid is the process that
// started this server (the worker running the tool). argv: LOG SLOW_MS.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod/v4';

const [log = 'steps.log', slow = '3000'] = process.argv.slice(2);
const server = new McpServer({ name: 'steps', version: '1.0.0' });
const step =
  (ms) =>
  async ({ tag }) => {
    appendFileSync(log, `start ${tag} ${process.ppid}\n`);
    await new Promise((r) => setTimeout(r, ms));
    appendFileSync(log, `done ${tag} ${process.ppid}\n`);
    return { content: [{ type: 'text', text: `finished ${tag}` }] };
  };
const input = { inputSchema: { tag: z.string() } };
server.registerTool('slow_step', { description: 'Do one slow step.', ...input }, step(Number(slow)));
server.registerTool('careful_step', { description: 'Do one quick step.', ...input }, step(10));
// A worker killed with SIGKILL closes this pipe: the step it ran goes with it, unfinished.
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
