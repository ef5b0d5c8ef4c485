import { existsSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/model.js';
import type { ToolProvider } from '../../../src/core/tool.js';
import { openSessionStore } from '../../../src/store/index.js';
import type { ScriptRequest } from '../../../src/testing/recorded-request.js';
import type { ScriptTurn } from '../../../src/testing/script.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const WINDOW = 12_000;

/** The store's size on disk, its write-ahead log included. */
const storeBytes = (path: string) =>
  [path, `${path}-wal`].reduce((sum, p) => sum + (existsSync(p) ? statSync(p).size : 0), 0);
const TURNS = Number(process.env['LONG_SESSION_TURNS'] ?? 60);

/** A tool whose every answer is long, so the conversation outgrows the window within a few turns. */
const reports: ToolProvider = {
  name: 'reports',
  app: 'reports',
  own: false,
  listTools: async () => [
    {
      name: 'fetch_report',
      description: 'Fetch the numbered report.',
      parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      risk: 'safe',
      requiresApproval: false,
    },
  ],
  invoke: async (_name, args) => ({
    content: `Report ${String(args['n'])}: ${'figures and findings. '.repeat(90)}`,
    isError: false,
  }),
};

const isSummary = (r: ScriptRequest) => r.system.includes('You condense the earlier part of a conversation');

/** The model: writes a summary when asked, answers after a tool result, else asks for a report. */
function model(request: ScriptRequest): ScriptTurn {
  if (isSummary(request))
    return { text: `Summary: the person asked for reports; ${request.messages.length} message(s) read.` };
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { text: `Read it. ${'A short note on the report. '.repeat(12)}` };
  const n = Number(/report (\d+)/.exec(last?.content ?? '')?.[1] ?? 0);
  return { toolCalls: [{ name: 'fetch_report', arguments: { n } }] };
}

/** Every call in `messages` has its result and every result its call. */
function orphans(messages: readonly ChatMessage[]): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) calls.add(c.id);
    if (m.role === 'tool') results.add(m.toolCallId);
  }
  return [...[...calls].filter((id) => !results.has(id)), ...[...results].filter((id) => !calls.has(id))];
}

const FAMILIES = [
  { family: 'openai', label: 'openai' },
  { family: 'openai', mode: 'gemini', label: 'gemini' },
  { family: 'anthropic', label: 'anthropic' },
  { family: 'bedrock', label: 'bedrock' },
] as const;

describe(`a ${TURNS}-turn session in a ${WINDOW.toLocaleString('en-US')}-token window`, () => {
  for (const f of FAMILIES) {
    it(`${f.label}: every turn answers, no request passes the window, no call parted from its result`, async () => {
      h = await startHarness({
        family: f.family,
        ...('mode' in f ? { mode: f.mode } : {}),
        providers: [reports],
        contextWindow: WINDOW,
        script: Array.from({ length: TURNS * 4 }, () => ({ respond: model })),
      });
      const session = await h.runtime.session('long');
      let notices = 0;
      for (let i = 1; i <= TURNS; i += 1) {
        const events = await collect(await session.send(`turn ${i}: please fetch report ${i}`));
        expect(turnEnd(events), `turn ${i}`).toMatchObject({ status: 'done' });
        notices += events.filter((e) => e.type === 'notice' && e.message.includes('summary')).length;
      }
      const requests = h.standIn.requests;
      const summaries = requests.filter(isSummary);
      expect(summaries.length).toBeGreaterThan(0);
      expect(notices).toBe(summaries.length);
      // the stand-in counts a request's tokens as its body's length ÷ 4
      const tokens = requests.map((r) => Math.ceil(r.rawBody.length / 4));
      expect(Math.max(...tokens)).toBeLessThanOrEqual(WINDOW);
      for (const s of summaries) expect(Math.ceil(s.rawBody.length / 4)).toBeLessThanOrEqual(WINDOW * 0.6);
      if (process.env['LONG_SESSION_FIGURES'])
        process.stdout.write(
          `${f.label}: ${TURNS} turns, ${requests.length} requests, ${summaries.length} compactions, largest request ${Math.max(...tokens)} tokens, largest summary request ${Math.max(...summaries.map((s) => Math.ceil(s.rawBody.length / 4)))} tokens (window ${WINDOW}), store ${storeBytes(h.dbPath)} bytes\n`,
        );
      const turns = requests.filter((q) => !isSummary(q));
      for (const r of turns) expect(orphans(r.messages)).toEqual([]);
      // the system prompt and the tool surface travel verbatim, the summary after the prompt
      const first = turns[0] as ScriptRequest;
      for (const r of turns) {
        expect(r.system.startsWith(first.system)).toBe(true);
        expect(r.tools.map((t) => t.name)).toEqual(first.tools.map((t) => t.name));
      }
      // the last request still carries the latest turn verbatim, and the summary with the system text
      const last = requests.filter((q) => !isSummary(q)).at(-1);
      expect(last?.messages.some((m) => m.role === 'user' && m.content.includes(`report ${TURNS}`))).toBe(
        true,
      );
      expect(last?.system).toContain('Summary: the person asked for reports');
      const store = openSessionStore({ path: h.dbPath });
      try {
        const compactions = await store.listCompactions('long');
        expect(compactions).toHaveLength(summaries.length);
        expect(compactions.every((c) => c.reason === 'threshold' && c.tokensAfter < c.tokensBefore)).toBe(
          true,
        );
        // the full history stays in the store
        expect(await store.listMessages('long')).toHaveLength(TURNS * 4);
        const usage = await store.listUsage('long');
        expect(usage.length).toBeGreaterThan(0);
        expect(usage.every((u) => u.inputTokens > 0 && u.requestChars > 0)).toBe(true);
      } finally {
        await store.close();
      }
    });
  }
});

describe("the turn's model-call limit", () => {
  it('counts a summary request: a turn at its limit after a compaction ends there, and the next turn goes on from the summary', async () => {
    h = await startHarness({
      limits: { maxModelCalls: 2 },
      script: [
        { text: 'First answer.' },
        { error: { status: 400, overflow: true } },
        { respond: model },
        { text: 'Third answer, after the summary.' },
      ],
    });
    const session = await h.runtime.session('s');
    await collect(await session.send('first question'));
    // the refused request and the summary request are the turn's two model calls
    const end = turnEnd(await collect(await session.send('second question')));
    expect(end).toMatchObject({ status: 'limit', errorCode: 'model_call_limit' });
    expect(h.standIn.requests).toHaveLength(3);
    expect(isSummary(h.standIn.requests[2] as ScriptRequest)).toBe(true);
    const next = turnEnd(await collect(await session.send('third question')));
    expect(next).toMatchObject({ status: 'done', message: 'Third answer, after the summary.' });
    expect(h.standIn.requests.at(-1)?.system).toContain('Summary: the person asked for reports');
  });
});

describe('a context-length refusal from the provider', () => {
  const chat = (text: string): ScriptTurn => ({ text });
  for (const f of FAMILIES) {
    it(`${f.label}: is answered with one compaction and one resend, never taken for a tool's fault`, async () => {
      h = await startHarness({
        family: f.family,
        ...('mode' in f ? { mode: f.mode } : {}),
        providers: [reports],
        script: [
          chat('First answer.'),
          chat('Second answer.'),
          { error: { status: 400, overflow: true } },
          { respond: model },
          chat('Third answer, after the summary.'),
        ],
      });
      const session = await h.runtime.session('s');
      await collect(await session.send('first question'));
      await collect(await session.send('second question'));
      const events = await collect(await session.send('third question'));
      expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'Third answer, after the summary.' });
      expect(events.some((e) => e.type === 'tools-quarantined')).toBe(false);
      expect(events.some((e) => e.type === 'notice' && e.message.includes('summary'))).toBe(true);
      const requests = h.standIn.requests;
      expect(requests.map((r) => r.outcome.kind)).toEqual([
        'answered',
        'answered',
        'error',
        'answered',
        'answered',
      ]);
      expect(isSummary(requests[3] as ScriptRequest)).toBe(true);
      const resent = requests[4] as ScriptRequest;
      expect(resent.messages.map((m) => m.role)).toEqual(['user']);
      expect(resent.system).toContain('Summary: the person asked for reports');
      // every answer's token counts are kept, the summary's too
      const store = openSessionStore({ path: h.dbPath });
      try {
        const usage = await store.listUsage('s');
        // the two first answers, the summary, the answer sent again (the refusal counted nothing)
        expect(usage).toHaveLength(4);
        expect(usage.every((u) => u.inputTokens > 0 && u.requestChars > 0)).toBe(true);
      } finally {
        await store.close();
      }
    });

    it(`${f.label}: a second refusal after the compaction ends the turn with a clear message`, async () => {
      h = await startHarness({
        family: f.family,
        ...('mode' in f ? { mode: f.mode } : {}),
        script: [
          chat('First answer.'),
          { error: { status: 400, overflow: true } },
          { respond: model },
          { error: { status: 400, overflow: true } },
        ],
      });
      const session = await h.runtime.session('s');
      await collect(await session.send('first question'));
      const end = turnEnd(await collect(await session.send('second question')));
      expect(end).toMatchObject({ status: 'failed', errorCode: 'context_overflow' });
      expect(end.message).toContain('still too long');
      expect(h.standIn.requests).toHaveLength(4);
    });
  }
});
