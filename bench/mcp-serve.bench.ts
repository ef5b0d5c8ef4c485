import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { parseConfig } from '../src/config.js';
import type { ToolContext, ToolProvider } from '../src/core/tool.js';
import { createRuntime } from '../src/create-runtime.js';
import { servedBy, servingModel, toolServer } from '../src/mcp-surface/index.js';
import { appToolkit } from '../src/tools/apps/app-toolkit.js';
import { defineTool, field, inProcessProvider } from '../src/tools/index.js';
import type { BenchFigure } from './run.js';
import { sourceRoot } from './source-root.js';
import { median } from './stats.js';

const root = sourceRoot(join('test', 'support', 'serve-app', 'index.mjs'));

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** ms per call of each variant (p50 over rounds), taken in alternating rounds so both see the same load. */
async function perCall(calls: number, rounds: number, ...variants: Array<() => Promise<unknown>>) {
  for (const call of variants) for (let i = 0; i < Math.min(200, calls); i++) await call();
  const samples = variants.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [v, call] of variants.entries()) {
      for (let i = 0; i < calls; i++) {
        const start = process.hrtime.bigint();
        await call();
        samples[v]?.push(ms(start));
      }
    }
  }
  return samples.map(median);
}

/** An installed app's 100 tools, defined with field specs as apps define them. */
function hundredAppTools(): ToolProvider {
  return inProcessProvider({
    name: 'bench-app',
    app: 'bench-app',
    group: { key: 'bench-app', own: false, purpose: 'A hundred record tools for the bench.' },
    tools: Array.from({ length: 100 }, (_, i) =>
      defineTool({
        name: `records_${i}_update`,
        description: `Update the records of ledger ${i}: set a field, a status and a note.`,
        risk: 'safe',
        fields: {
          id: field.string({ maxLength: 40, description: 'The record id' }),
          status: field.string({ enum: ['open', 'held', 'closed'], description: 'Its new status' }),
          count: field.integer({ min: 0, max: 1000, optional: true, description: 'How many' }),
          note: field.string({ maxLength: 500, optional: true, description: 'A note' }),
        },
        handler: (a) => `${i}:${a.id}`,
      }),
    ),
  });
}

/** A bare SDK server listing the same tools, as JSON kept ready: the baseline of a listing. */
async function bareListing(tools: readonly Tool[]): Promise<Client> {
  const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...tools] }));
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientEnd);
  return client;
}

async function listingFigures(dir: string): Promise<BenchFigure[]> {
  const config = parseConfig({ workspace: [dir], shell: { sandbox: 'off' } }, { baseDir: dir, env: {} });
  const runtime = await createRuntime({
    model: servingModel,
    config,
    store: join(dir, 'listing.db'),
    builtins: false,
    tools: [hundredAppTools()],
    subagents: false,
  });
  const served = toolServer(runtime, { serves: servedBy(undefined), version: 'bench' });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await served.server.connect(serverEnd);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientEnd);
  let start = process.hrtime.bigint();
  const { tools } = await client.listTools();
  const first = ms(start);
  if (tools.length !== 100) throw new Error(`expected 100 listed tools, got ${tools.length}`);
  const bare = await bareListing(tools);
  const [ours = 0, baseline = 0] = await perCall(
    50,
    9,
    () => client.listTools(),
    () => bare.listTools(),
  );
  // What toolseam itself does for a listing, without the SDK and the transport around it.
  const session = await served.session();
  const own: number[] = [];
  for (let i = 0; i < 500; i++) {
    start = process.hrtime.bigint();
    await session.tools();
    own.push(ms(start));
  }
  await client.close();
  await bare.close();
  await served.close();
  await runtime.close();
  return [
    { name: 'tools/list of 100 app tools, first (session opened)', value: first, unit: 'ms' },
    {
      name: 'tools/list of 100 app tools, in-memory round trip, p50',
      value: ours,
      unit: 'ms',
      target: '< 5 ms',
      ok: ours < 5,
    },
    { name: '  baseline: bare SDK server, same 100 tools ready, p50', value: baseline, unit: 'ms' },
    { name: "  toolseam's own part (served tools of the session), p50", value: median(own), unit: 'ms' },
  ];
}

/** The SDK client on a process's stdin and stdout. */
async function stdioClient(args: string[], cwd: string, env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args, cwd, env, stderr: 'ignore' }),
  );
  return client;
}

async function roundTripFigures(dir: string, source: string): Promise<BenchFigure[]> {
  const app = join(source, 'test', 'support', 'serve-app');
  writeFileSync(
    join(dir, 'toolseam.json'),
    JSON.stringify({ apps: [app], db: join(dir, 'calls.db'), shell: { sandbox: 'off' } }),
  );
  const env = { PATH: process.env.PATH ?? '', HOME: dir };
  const ours = await stdioClient(
    [join(source, 'bin', 'toolseam.js'), 'mcp-serve', '--tools', 'greet'],
    dir,
    env,
  );
  const bare = await stdioClient([join(source, 'bench', 'bare-mcp-server.mjs')], dir, env);
  const greet = { name: 'greet', arguments: { name: 'Ada' } };
  const [toolseam = 0, baseline = 0] = await perCall(
    200,
    5,
    () => ours.callTool(greet),
    () => bare.callTool(greet),
  );
  await ours.close();
  await bare.close();

  // The tool's own time: the app's provider answering the call in this process (field checks and handler).
  const module = (await import(pathToFileURL(join(app, 'index.mjs')).href)) as {
    default: (context: { toolkit: typeof appToolkit }) => {
      tools: Parameters<typeof inProcessProvider>[0]['tools'];
    };
  };
  const provider = inProcessProvider({
    name: 'serve-app',
    tools: module.default({ toolkit: appToolkit }).tools,
  });
  const ctx: ToolContext = {
    sessionId: 'b',
    callId: 'c',
    signal: new AbortController().signal,
    turnState: new Map(),
  };
  // A copy of the arguments each call, as one sent over the wire arrives: a tool reads each arguments
  // object once, and a later call with the same object would time a lookup instead.
  const [toolTime = 0] = await perCall(500, 5, () => provider.invoke('greet', { ...greet.arguments }, ctx));
  const beyond = toolseam - toolTime;
  return [
    { name: 'tools/call greet over stdio, toolseam mcp-serve, p50', value: toolseam, unit: 'ms' },
    { name: "  the tool's own time (its app's provider in-process), p50", value: toolTime, unit: 'ms' },
    {
      name: "  round trip beyond the tool's own time, p50",
      value: beyond,
      unit: 'ms',
      target: '< 2 ms',
      ok: beyond < 2,
    },
    { name: '  baseline: bare SDK stdio server, same tool, p50', value: baseline, unit: 'ms' },
  ];
}

/** `toolseam mcp-serve`: a listing of 100 app tools, and a call's round trip over stdio, each beside a bare SDK server. */
export async function bench(): Promise<BenchFigure[]> {
  if (!root) throw new Error('bench/mcp-serve needs the source tree (test/support, bin) next to dist');
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-mcp-serve-'));
  try {
    return [...(await listingFigures(dir)), ...(await roundTripFigures(dir, root))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
