import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolDefinition, ToolProvider } from '../../src/core/tool.js';
import { createModelAdapter } from '../../src/providers/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { openSessionStore } from '../../src/store/index.js';
import { startStandIn } from '../../src/testing/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { newCall, turnWithCalls } from '../store/store-fixtures.js';
import { callEnds, collect } from '../support/runtime-harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const ECHO: ToolDefinition = {
  name: 'late/echo',
  description: 'Answers with the text it is given.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  risk: 'caution',
  requiresApproval: true,
};

/**
 * A provider still starting, as an MCP server slow to come up is: a listing meanwhile goes on without
 * its tools, and `whenListed` settles once it is up (when `start` is called).
 */
function lateProvider(): { provider: ToolProvider; start: () => void } {
  let up = false;
  let started: () => void = () => {};
  const listed = new Promise<void>((done) => {
    started = done;
  });
  return {
    provider: {
      name: 'late',
      app: 'late',
      own: false,
      listTools: async () => (up ? [ECHO] : []),
      invoke: async (_name, args) => ({ content: `echo: ${String(args.text)}`, isError: false }),
      whenListed: () => listed,
    },
    start() {
      up = true;
      started();
    },
  };
}

describe('a resumed turn whose approved call belongs to a provider still starting', () => {
  it('waits for that provider before its tools are served, and runs the call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-resume-late-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, 'toolseam.db');
    const store = openSessionStore({ path: dbPath });
    cleanups.push(() => store.close());
    // What a process that died after the person said yes leaves behind: the turn and its approved call.
    const { turn } = await turnWithCalls(store, [newCall('c1', ECHO.name, { text: 'hi' })]);
    await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:999999` });
    await store.approveToolCall(turn.id, 'c1');

    const standIn = await startStandIn({ family: 'openai', script: [{ text: 'Echoed.' }] });
    cleanups.push(() => standIn.close());
    const late = lateProvider();
    const registry = createToolRegistry();
    registry.register(late.provider);
    const runtime = new Runtime({
      model: createModelAdapter({ ...standIn.modelConfig('stand-in'), retry: { maxRetries: 0 } } as never),
      registry,
      store: openSessionStore({ path: dbPath }),
    });
    cleanups.push(() => runtime.close());

    const resuming = runtime.resumeTurn(turn.id);
    // The provider comes up only after the resume began: before, a listing would leave its tool out.
    setTimeout(late.start, 200);
    const events = await collect(await resuming);
    expect(callEnds(events)).toMatchObject([{ callId: 'c1', content: 'echo: hi', isError: false }]);
  });
});
