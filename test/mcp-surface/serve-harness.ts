import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { parseConfig } from '../../src/config.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { createRuntime } from '../../src/create-runtime.js';
import { servedBy, servingModel, toolServer } from '../../src/mcp-surface/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { sdkClient } from './serve-process.js';

/** A runtime as `toolseam mcp-serve` builds it (no model), with the demo app's tools, on a fresh database. */
export async function servingRuntime(
  config: Record<string, unknown> = {},
  more: { tools?: readonly ToolProvider[]; env?: Record<string, string> } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-mcp-surface-'));
  const counts: RunCounts = new Map();
  const parsed = parseConfig(
    { workspace: [dir], shell: { sandbox: 'off' }, ...config },
    { source: join(dir, 'toolseam.json'), baseDir: dir, env: more.env ?? {} },
  );
  const runtime = await createRuntime({
    model: servingModel,
    config: parsed,
    store: join(dir, 'sessions.db'),
    tools: [demoProvider(counts), ...(more.tools ?? [])],
    subagents: false,
  });
  return {
    dir,
    counts,
    runtime,
    patterns: parsed.serve?.tools,
    async close() {
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What an in-memory client answers a question put to it with; none: the client cannot ask. */
export type ClientAnswer = (message: string) => ElicitResult;

/** The SDK's Client on the SDK's in-memory transport pair, talking to one connection's tool server. */
export async function memoryClient(runtime: Runtime, patterns?: readonly string[], answer?: ClientAnswer) {
  const served = toolServer(runtime, { serves: servedBy(patterns), version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const { client, asked } = sdkClient(answer, 'memory-client', '1.0.0');
  await served.server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    served,
    asked,
    async close() {
      await client.close();
      await served.close();
    },
  };
}

export { firstText as textOf } from './serve-process.js';
