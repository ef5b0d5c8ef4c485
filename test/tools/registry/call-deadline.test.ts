import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../src/core/logger.js';
import type { ToolProvider } from '../../../src/core/tool.js';
import { defineTool, field, inProcessProvider } from '../../../src/tools/index.js';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import {
  callLimitMs,
  DEFAULT_CALL_TIMEOUT_MS,
  OWN_LIMIT_MARGIN_MS,
} from '../../../src/tools/registry/call-deadline.js';
import { createToolRegistry, type ToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import { notesStdio } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';
import { freshBench } from '../builtin/builtin-fixture.js';

const registries: ToolRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.close()));
});

const never = defineTool({
  name: 'never_answers',
  description: 'Never answers.',
  risk: 'safe',
  handler: () => new Promise<string>(() => {}),
});
let heard: AbortSignal | undefined;
const heeds = defineTool({
  name: 'heeds_its_signal',
  description: 'Waits until its signal says stop.',
  risk: 'safe',
  handler: (_args, ctx) =>
    new Promise<string>((resolve) => {
      heard = ctx.signal;
      ctx.signal.addEventListener('abort', () => resolve('gave up'));
    }),
});
const asks = defineTool({
  name: 'asks_a_person',
  description: 'Waits for a person.',
  risk: 'safe',
  timeLimitMs: null,
  handler: () => 'answered',
});
const counts = defineTool({
  name: 'counts',
  description: 'Counts for as long as it is told.',
  risk: 'safe',
  fields: { seconds: field.integer({ min: 1, max: 100 }) },
  timeLimitMs: (args) => args.seconds * 1000,
  handler: () => 'counted',
});
const tools = inProcessProvider({ name: 'slow', tools: [never, heeds, asks, counts] });

describe('how long a call may run', () => {
  it("a tool's own limit wins (with a margin), null means none, else the config's deadline, else 60 s", () => {
    const configured = (name: string) => (name === 'never_answers' ? 2_000 : undefined);
    expect(callLimitMs(tools, 'counts', { seconds: 30 }, configured)).toBe(30_000 + OWN_LIMIT_MARGIN_MS);
    expect(callLimitMs(tools, 'asks_a_person', {}, configured)).toBeUndefined();
    expect(callLimitMs(tools, 'never_answers', {}, configured)).toBe(2_000);
    expect(callLimitMs(tools, 'heeds_its_signal', {}, configured)).toBe(DEFAULT_CALL_TIMEOUT_MS);
    // arguments the tool cannot read declare nothing: its call is refused anyway
    expect(callLimitMs(tools, 'counts', { seconds: 'x' }, undefined)).toBe(DEFAULT_CALL_TIMEOUT_MS);
  });

  it("bash's limit is its timeout_seconds, ask_user has none, an MCP server's is its own timeouts", async () => {
    const { bench, tools: builtins } = await freshBench();
    try {
      const serving = (name: string) => builtins.providers.find((p) => p.tools.has(name)) as ToolProvider;
      const bash = { command: 'ls', timeout_seconds: 600 };
      expect(callLimitMs(serving('bash'), 'bash', bash, () => 1)).toBe(600_000 + OWN_LIMIT_MARGIN_MS);
      expect(callLimitMs(serving('ask_user'), 'ask_user', { question: 'which?' }, () => 1)).toBeUndefined();
      expect(callLimitMs(serving('read_file'), 'read_file', { path: 'a' }, () => 1)).toBe(1);
    } finally {
      await bench.cleanup();
    }
    const mcp = createMcpProvider(notesStdio(), {
      timeouts: { startMs: 1_000, listMs: 2_000, callMs: 3_000 },
    });
    expect(callLimitMs(mcp, 'mcp/notes/lookup', {}, () => 1)).toBe(
      1_000 + 2_000 + 10 * 3_000 + OWN_LIMIT_MARGIN_MS,
    );
  });

  it('a provider that answers nonsense or throws when asked declares nothing', () => {
    const odd = (answer: () => unknown): ToolProvider => ({
      name: 'odd',
      app: 'odd',
      own: false,
      listTools: async () => [],
      invoke: async () => ({ content: '', isError: false }),
      timeLimitMs: answer as never,
    });
    for (const answer of [
      () => -5,
      () => 'soon',
      () => Number.NaN,
      () => {
        throw new Error('x');
      },
    ]) {
      expect(callLimitMs(odd(answer), 't', {}, undefined)).toBe(DEFAULT_CALL_TIMEOUT_MS);
    }
  });
});

describe('a call past its deadline', () => {
  it('ends as a tool error saying so, whether the tool ignores its signal or heeds it', async () => {
    const registry = createToolRegistry({ callTimeouts: () => 300 });
    registries.push(registry);
    registry.register(tools);
    for (const name of ['never_answers', 'heeds_its_signal']) {
      const result = await registry.invoke(name, {}, toolContext());
      expect(result).toMatchObject({ isError: true, data: { code: 'tool_timeout', limitMs: 300 } });
      expect(result.content).toContain(`${name} did not finish within 300 ms, its time limit`);
    }
    expect(heard?.aborted).toBe(true);
  });
});

describe('a result longer than a tool result may hold', () => {
  it('is dropped unread, with an error that gives the size, the limit and what to ask instead', async () => {
    const chatty = defineTool({
      name: 'chatty',
      description: 'Says a lot.',
      risk: 'safe',
      fields: { chars: field.integer({ min: 1 }) },
      handler: (args) => 'z'.repeat(args.chars),
    });
    const registry = createToolRegistry({ maxResultChars: 1_000 });
    registries.push(registry);
    registry.register(inProcessProvider({ name: 'talk', tools: [chatty] }));
    expect((await registry.invoke('chatty', { chars: 1_000 }, toolContext())).content).toHaveLength(1_000);
    const dropped = await registry.invoke('chatty', { chars: 5_000 }, toolContext());
    expect(dropped).toMatchObject({ isError: true, data: { code: 'result_too_large', chars: 5_000 } });
    expect(dropped.content).toBe(
      'Error: chatty returned 5,000 characters, past the 1,000 a tool result may hold, so its result was dropped unread. ' +
        'It ran; only its answer was too large to read. Ask it for a smaller part (a narrower query, a page, a range) instead.',
    );
  });
});

describe('a pre-flight check past the call deadline', () => {
  it('refuses nothing (as a check that fails), and is told in the log', async () => {
    const stuck: ToolProvider = {
      name: 'stuck',
      app: 'stuck',
      own: false,
      listTools: async () => [
        {
          name: 'stuck_tool',
          description: 'Checks forever.',
          parameters: undefined,
          risk: 'caution',
          requiresApproval: true,
        },
      ],
      invoke: async () => ({ content: 'ran', isError: false }),
      preflight: () => new Promise(() => {}),
    };
    const logger = memoryLogger();
    const registry = createToolRegistry({ callTimeouts: () => 200, logger });
    registries.push(registry);
    registry.register(stuck);
    expect(await registry.preflight('stuck_tool', {}, toolContext())).toBeUndefined();
    expect(logger.records.map((r) => r.message).join('\n')).toContain(
      'the pre-flight check of stuck_tool failed, so it refuses nothing: did not finish within 200 ms',
    );
  });
});
