import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/model.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { openSessionStore } from '../../src/store/index.js';
import type { RecordedRequest } from '../../src/testing/index.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Every provider's function-name rule at once (Gemini also wants a letter or `_` first). */
const WIRE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const REAL = 'mcp/github/create_issue';
const WIRE = 'mcp_github_create_issue';

/** A GitHub-like MCP server's tool, under a real name that cannot travel as it is. */
function github(ran: string[] = []): ToolProvider {
  return {
    name: 'mcp/github',
    app: 'github',
    own: false,
    listTools: async () => [
      {
        name: REAL,
        description: 'Create an issue in a repository.',
        parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
        risk: 'safe',
        requiresApproval: false,
      },
    ],
    invoke: async (_name, args) => {
      ran.push(String((args as { title?: unknown }).title));
      return { content: 'issue #7 created', isError: false };
    },
  };
}

/** Every tool name a request's conversation carries: the calls' and the results'. */
function historyNames(request: RecordedRequest | undefined): string[] {
  return (request?.messages ?? []).flatMap((m: ChatMessage) => {
    if (m.role === 'assistant') return (m.toolCalls ?? []).map((c) => c.name);
    return m.role === 'tool' ? [m.name] : [];
  });
}

const FAMILIES = [
  { family: 'openai' },
  { family: 'openai', mode: 'gemini' },
  { family: 'anthropic' },
  { family: 'bedrock' },
] as const;

describe('a call the model made under the real name of a tool (as tool_search and the catalog list it)', () => {
  for (const c of FAMILIES) {
    const label = 'mode' in c ? c.mode : c.family;
    it(`${label}: is replayed under the tool's wire name on the next model call and the next turn`, async () => {
      const ran: string[] = [];
      h = await startHarness({
        family: c.family,
        ...('mode' in c ? { mode: c.mode } : {}),
        providers: [github(ran)],
        script: [
          { toolCalls: [{ name: REAL, arguments: { title: 'Crash on start' } }] },
          { text: 'Created issue #7.' },
          { text: 'It is issue #7.' },
        ],
      });
      const session = await h.runtime.session('s');
      const first = await collect(await session.send('open an issue about the crash'));
      expect(turnEnd(first)).toMatchObject({ status: 'done', message: 'Created issue #7.' });
      expect(ran).toEqual(['Crash on start']);
      expect(callEnds(first).map((e) => e.tool)).toEqual([REAL]);
      const second = await collect(await session.send('which issue was it?'));
      expect(turnEnd(second)).toMatchObject({ status: 'done', message: 'It is issue #7.' });

      const requests = h.standIn.requests;
      expect(requests.map((r) => r.outcome.kind)).toEqual(['answered', 'answered', 'answered']);
      for (const r of requests.slice(1)) {
        expect(historyNames(r)).toEqual([WIRE, WIRE]);
        for (const name of historyNames(r)) expect(name).toMatch(WIRE_NAME);
        expect(r.tools.map((t) => t.name)).toContain(WIRE);
      }
    });
  }
});

describe('a stored conversation holding real tool names (an older toolseam, or messages a host appended)', () => {
  for (const c of [{ family: 'bedrock' }, { family: 'openai', mode: 'gemini' }] as const) {
    const label = 'mode' in c ? c.mode : c.family;
    it(`${label}: is sent with every call and result under a name the provider takes`, async () => {
      h = await startHarness({
        family: c.family,
        ...('mode' in c ? { mode: c.mode } : {}),
        providers: [github()],
        script: [{ text: 'Hello.' }, { text: 'It is issue #7.' }],
      });
      const session = await h.runtime.session('s');
      expect(turnEnd(await collect(await session.send('hi')))).toMatchObject({ status: 'done' });
      const writer = openSessionStore({ path: h.dbPath });
      const turnId = (await writer.listTurns({ sessionId: 's' }))[0]?.id as string;
      await writer.appendMessage(turnId, {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'call_a', name: REAL, arguments: '{"title":"Crash"}' },
          { id: 'call_b', name: 'notes.search', arguments: '{}' },
        ],
      });
      await writer.appendMessage(turnId, {
        role: 'tool',
        toolCallId: 'call_a',
        name: REAL,
        content: 'issue #7 created',
        isError: false,
      });
      await writer.appendMessage(turnId, {
        role: 'tool',
        toolCallId: 'call_b',
        name: 'notes.search',
        content: 'Error: there is no tool named notes.search.',
        isError: true,
      });
      await writer.close();

      const end = turnEnd(await collect(await session.send('which issue was it?')));
      expect(end).toMatchObject({ status: 'done', message: 'It is issue #7.' });
      const last = h.standIn.requests.at(-1);
      expect(last?.outcome.kind).toBe('answered');
      expect(historyNames(last)).toEqual([WIRE, 'notes_search', WIRE, 'notes_search']);
    });
  }
});
