import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/model.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { openSessionStore } from '../../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { createMcpProvider } from '../../src/tools/mcp/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DEPTH = 10_000;
/** Lists nested `DEPTH` levels deep, as JSON text (JSON.stringify cannot write the value). */
const deepList = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

/** No two user messages in a row, and every call answered by a tool message. */
function expectWhole(messages: readonly ChatMessage[]): void {
  messages.forEach((m, i) => {
    if (i > 0 && m.role === 'user') expect(messages[i - 1]?.role).not.toBe('user');
  });
  const answered = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  for (const m of messages) {
    if (m.role === 'assistant')
      for (const call of m.toolCalls ?? []) expect(answered.has(call.id)).toBe(true);
  }
}

const settings = [
  { family: 'openai', stream: true },
  { family: 'anthropic', stream: true },
  { family: 'bedrock', stream: true },
  { family: 'anthropic', stream: false },
  { family: 'bedrock', stream: false },
] as const;

describe('arguments nested 10,000 levels deep', () => {
  for (const { family, stream } of settings) {
    it(`are refused with a tool error, and the session goes on whole (${family}, ${stream ? 'streamed' : 'not streamed'})`, async () => {
      const counts: RunCounts = new Map();
      h = await startHarness({
        family,
        modelSettings: { stream },
        providers: [demoProvider(counts)],
        script: [
          { toolCalls: [{ name: 'lookup_weather', arguments: `{"city":${deepList}}` }] },
          { text: 'I will ask differently.' },
          { text: 'Still here.' },
        ],
      });
      const session = await h.runtime.session('s');
      const first = await collect(await session.send('weather?'));
      expect(turnEnd(first)).toMatchObject({ status: 'done', message: 'I will ask differently.' });
      const [refused] = callEnds(first);
      expect(refused).toMatchObject({
        tool: 'lookup_weather',
        isError: true,
        notRun: 'unreadable_arguments',
      });
      expect(refused?.content).toContain('more than 100 levels of nested objects and lists');
      expect(refused?.content).toContain('Send the call again with flatter arguments');
      expect(counts.get('lookup_weather') ?? 0).toBe(0);

      const second = await collect(await session.send('and now?'));
      expect(turnEnd(second)).toMatchObject({ status: 'done', message: 'Still here.' });
      const history = h.standIn.requests[2]?.messages ?? [];
      expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
      expectWhole(history);
      const store = openSessionStore({ path: h.dbPath });
      try {
        expectWhole((await store.listMessages('s')).map((m) => m.message));
        expect((await store.listTurns({ sessionId: 's' })).map((t) => t.status)).toEqual(['done', 'done']);
      } finally {
        await store.close();
      }
    });
  }

  it('are refused when they arrive as lifted JSON text for a free-form argument', async () => {
    let ran = 0;
    const docs: ToolProvider = {
      name: 'docs',
      app: 'docs',
      own: false,
      async listTools() {
        const parameters = { type: 'object', properties: { doc: { type: 'object' } }, required: ['doc'] };
        return [
          {
            name: 'save_doc',
            description: 'Save a document.',
            parameters,
            risk: 'safe',
            requiresApproval: false,
          },
        ];
      },
      async invoke() {
        ran += 1;
        return { content: 'saved', isError: false };
      },
    };
    h = await startHarness({
      providers: [docs],
      script: [
        { toolCalls: [{ name: 'save_doc', arguments: { doc: `{"tree":${deepList}}` } }] },
        { text: 'Noted.' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('save it'));
    expect(turnEnd(events)).toMatchObject({ status: 'done' });
    expect(callEnds(events)[0]).toMatchObject({ isError: true, notRun: 'unreadable_arguments' });
    expect(callEnds(events)[0]?.content).toContain('more than 100 levels');
    expect(ran).toBe(0);
  });
});

describe('a tool answering with a value nested 10,000 levels deep', () => {
  it('an in-process app tool: its result is read, the deep parts it cannot show left out', async () => {
    const deep = JSON.parse(deepList) as unknown;
    const tool = defineTool({
      name: 'make_tree',
      description: 'Builds a tree.',
      risk: 'safe',
      fields: { size: field.integer({ optional: true }) },
      handler: () => ({
        content: 'built',
        isError: false,
        hints: [deep as string, 'Look at it.'],
        data: deep,
      }),
    });
    h = await startHarness({
      providers: [inProcessProvider({ name: 'trees', tools: [tool] })],
      script: [{ toolCalls: [{ name: 'make_tree', arguments: {} }] }, { echo: 'lastToolResult' }],
    });
    const events = await collect(await (await h.runtime.session('s')).send('build'));
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'built\nHint: Look at it.' });
  });

  it('an MCP server: deep structured content and deep text are shown within the result limit', async () => {
    h = await startHarness({
      providers: [
        createMcpProvider(
          {
            name: 'deep',
            kind: 'stdio',
            command: process.execPath,
            args: [join(import.meta.dirname, '../support/mcp-deep-server.mjs')],
            env: {},
          },
          { timeouts: { startMs: 10_000, listMs: 10_000, callMs: 10_000 } },
        ),
      ],
      approvals: { policy: 'auto' },
      script: [
        {
          toolCalls: [
            { name: 'mcp_deep_deep_structured', arguments: {} },
            { name: 'mcp_deep_deep_text', arguments: {} },
            { name: 'mcp_deep_store_doc', arguments: { doc: `{"tree":${deepList}}` } },
          ],
        },
        { text: 'Looked.' },
        { text: 'Again.' },
      ],
    });
    const session = await h.runtime.session('s');
    const events = await collect(await session.send('look'));
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'Looked.' });
    const ends = new Map(callEnds(events).map((e) => [e.tool, e]));
    expect(ends.get('mcp/deep/deep_structured')).toMatchObject({ isError: false });
    expect(ends.get('mcp/deep/deep_structured')?.content).toMatch(/^\{"tree":\[\[\[\[/);
    expect(ends.get('mcp/deep/deep_text')).toMatchObject({ isError: false });
    expect(ends.get('mcp/deep/deep_text')?.content).toMatch(/^\[\[\[\[/);
    expect(ends.get('mcp/deep/store_doc')).toMatchObject({ isError: true });
    expect(ends.get('mcp/deep/store_doc')?.content).toContain('more than 100 levels');
    await collect(await session.send('again'));
    expectWhole(h.standIn.requests[2]?.messages ?? []);
  }, 30_000);
});
