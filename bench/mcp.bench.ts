import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';
import type { ToolContext } from '../src/core/tool.js';
import type { McpServerConfig } from '../src/tools/mcp/mcp-config.js';
import { createMcpProvider } from '../src/tools/mcp/mcp-provider.js';
import type { BenchFigure } from './run.js';
import { sourceRoot } from './source-root.js';
import { median } from './stats.js';

// The server script itself: dist/ holds compiled test support files but not this one.
const root = sourceRoot(join('test', 'support', 'mcp-notes-server.mjs'));

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Starts every server and lists its tools in parallel; returns the wall time in ms and the tool count. */
async function startAndList(servers: readonly McpServerConfig[]): Promise<{ ms: number; tools: number }> {
  const providers = servers.map((s) => createMcpProvider(s));
  const start = process.hrtime.bigint();
  const lists = await Promise.all(providers.map((p) => p.listTools()));
  const elapsed = ms(start);
  await Promise.all(providers.map((p) => p.close()));
  return { ms: elapsed, tools: lists.reduce((n, l) => n + l.length, 0) };
}

async function parallelStart(label: string, make: (i: number) => McpServerConfig): Promise<BenchFigure> {
  const servers = Array.from({ length: 5 }, (_, i) => make(i));
  const samples: number[] = [];
  let tools = 0;
  for (let round = 0; round < 5; round++) {
    const run = await startAndList(servers);
    samples.push(run.ms);
    tools = run.tools;
  }
  return {
    name: `start 5 stdio ${label} servers + list tools (${tools} tools), p50`,
    value: median(samples),
    unit: 'ms',
  };
}

function echoServer(): McpServer {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes.', inputSchema: { text: z.string(), n: z.number().optional() } },
    async ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  return server;
}

async function inMemoryPair(): Promise<InMemoryTransport> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await echoServer().connect(serverEnd);
  return clientEnd;
}

/** Per-call µs (p50 over rounds) of each call, measured in alternating rounds so both see the same load. */
async function perCall(calls: number, ...variants: Array<() => Promise<unknown>>): Promise<number[]> {
  for (const call of variants) for (let i = 0; i < 300; i++) await call();
  const samples = variants.map(() => [] as number[]);
  for (let round = 0; round < 9; round++) {
    for (const [v, call] of variants.entries()) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) await call();
      samples[v]?.push((ms(start) * 1000) / calls);
    }
  }
  return samples.map(median);
}

/** MCP hosting: parallel start-up of stdio servers, and the cost of one in-process tool round trip. */
export async function bench(): Promise<BenchFigure[]> {
  if (!root) throw new Error('bench/mcp needs the source tree (test/support) next to dist');
  const script = join(root, 'test', 'support', 'mcp-notes-server.mjs');
  const everything = join(
    root,
    'node_modules',
    '@modelcontextprotocol',
    'server-everything',
    'dist',
    'index.js',
  );
  const figures: BenchFigure[] = [];
  figures.push(
    await parallelStart('SDK notes', (i) => ({
      name: `notes${i}`,
      kind: 'stdio',
      command: process.execPath,
      args: [script, `notes${i}`],
      env: {},
    })),
  );
  figures.push(
    await parallelStart('server-everything', (i) => ({
      name: `everything${i}`,
      kind: 'stdio',
      command: process.execPath,
      args: [everything],
      env: {},
    })),
  );

  // The client side of a start (connect, initialize, tools/list), without any child process.
  const starts: number[] = [];
  for (let round = 0; round < 50; round++) {
    const fresh = createMcpProvider({ kind: 'in-process', name: `start${round}`, connect: inMemoryPair });
    const start = process.hrtime.bigint();
    await fresh.listTools();
    starts.push(ms(start));
    await fresh.close();
  }
  figures.push({
    name: 'in-process server: connect + initialize + list tools, p50',
    value: median(starts),
    unit: 'ms',
  });

  const provider = createMcpProvider({ kind: 'in-process', name: 'bench', connect: inMemoryPair });
  await provider.listTools();
  const signal = new AbortController().signal;
  const ctx: ToolContext = { sessionId: 'bench', callId: 'c', signal, turnState: new Map() };
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(await inMemoryPair());
  const [viaProvider = 0, raw = 0] = await perCall(
    1000,
    () => provider.invoke('mcp/bench/echo', { text: 'hi', n: '3' }, ctx),
    () => client.callTool({ name: 'echo', arguments: { text: 'hi', n: 3 } }),
  );
  await provider.close();
  await client.close();

  figures.push({
    name: 'in-process MCP tool round trip via the provider, p50',
    value: viaProvider,
    unit: 'µs/call',
  });
  figures.push({ name: 'same round trip on the bare SDK client, p50', value: raw, unit: 'µs/call' });
  figures.push({
    name: 'provider minus bare client (toolseam work per call; noise ±40 µs)',
    value: viaProvider - raw,
    unit: 'µs/call',
  });
  return figures;
}
