import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { parseConfig } from '../../src/config.js';
import { createRuntime } from '../../src/create-runtime.js';
import { servedBy, servingModel, toolServer } from '../../src/mcp-surface/index.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';

/** A runtime as `toolseam mcp-serve` builds it (no model), with the demo app's tools, on a fresh database. */
export async function servingRuntime(config: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-mcp-surface-'));
  const counts: RunCounts = new Map();
  const parsed = parseConfig(
    { workspace: [dir], shell: { sandbox: 'off' }, ...config },
    { source: join(dir, 'toolseam.json'), baseDir: dir, env: {} },
  );
  const runtime = await createRuntime({
    model: servingModel,
    config: parsed,
    store: join(dir, 'sessions.db'),
    tools: [demoProvider(counts)],
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
  const client = new Client(
    { name: 'memory-client', version: '1.0.0' },
    { capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  const asked: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const message = request.params.message;
      asked.push(message);
      return answer(message);
    });
  }
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

/** The text of a tool result's first content item. */
export function textOf(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return first?.text ?? '';
}
