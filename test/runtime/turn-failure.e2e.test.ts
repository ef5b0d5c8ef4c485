import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/logger.js';
import { openSessionStore } from '../../src/store/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An OpenAI reply with a call reusing the id `call_1` and a call with an empty tool name. */
function twoCalls(stream: boolean): { status: number; headers: Record<string, string>; body: string } {
  const calls = [
    {
      index: 0,
      id: 'call_1',
      type: 'function',
      function: { name: 'lookup_weather', arguments: '{"city":"Rome"}' },
    },
    { index: 1, id: 'call_2', type: 'function', function: { name: '', arguments: '{}' } },
  ];
  const base = { id: 'chatcmpl-1', created: 1, model: 'stand-in-model' };
  if (!stream) {
    const message = { role: 'assistant', content: null, tool_calls: calls.map(({ index: _i, ...c }) => c) };
    const body = {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
    };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  }
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const body =
    chunk({ role: 'assistant', tool_calls: calls }, null) + chunk({}, 'tool_calls') + 'data: [DONE]\n\n';
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, body };
}

describe('a turn that fails inside toolseam', () => {
  for (const family of ['openai', 'anthropic'] as const) {
    it(`answers the calls it left behind, so the session goes on (${family})`, async () => {
      const counts: RunCounts = new Map();
      h = await startHarness({
        family,
        providers: [demoProvider(counts)],
        // A glob no engine can compile makes the hook gate throw while the reply's calls are run (a
        // config's globs are checked when it is read; a library's options are not, so this reaches the turn).
        hooks: [{ match: 'shell.[z-a]', command: 'true' }],
        script: [
          { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
          { text: 'Still here.' },
        ],
      });
      const session = await h.runtime.session('s');
      const first = await collect(await session.send('weather?'));
      expect(turnEnd(first)).toMatchObject({ status: 'failed', errorCode: 'internal' });
      const second = await collect(await session.send('are you there?'));
      expect(turnEnd(second)).toMatchObject({ status: 'done', message: 'Still here.' });
      expect(callEnds(second)).toEqual([]);
      const history = h.standIn.requests[1]?.messages ?? [];
      const answer = history.find((m) => m.role === 'tool');
      expect(JSON.stringify(answer)).toContain(
        'was not run: the turn failed inside toolseam before it started.',
      );
      expect(counts.get('lookup_weather') ?? 0).toBe(0);
    });
  }

  it('gives a call with a repeated id a new one, and answers a call without a tool name', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [
        { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' }, id: 'call_1' }] },
        // The script refuses a nameless call, so this reply is sent as raw wire text.
        { respond: (request) => ({ raw: twoCalls(request.stream) }) },
        { text: 'Done.' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('weather in two places'));
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'Done.' });
    const ends = callEnds(events);
    expect(ends).toHaveLength(3);
    const nameless = ends.filter((e) => e.isError);
    expect(nameless.map((e) => e.content)).toEqual([
      'Error: a tool call came without a tool name, so nothing was run. Call a tool by one of the names offered.',
    ]);
    const ids = ends.map((e) => e.callId);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('call_1');
    expect(counts.get('lookup_weather')).toBe(2);
  });
});

describe('a secret in why a turn ended is hidden as in results', () => {
  const KEY = 'sk-live-4f8a2c9e7b1d6f3a';
  const secrets = new Map([['MODEL_KEY', KEY]]);

  /** The stored error of the session's turn, read from the SQLite file by a second connection. */
  async function storedError(dbPath: string, turnId: string): Promise<string | undefined> {
    const store = openSessionStore({ path: dbPath });
    try {
      return (await store.getTurn(turnId))?.error;
    } finally {
      await store.close();
    }
  }

  it("a provider's error body that echoes the key back: in the turn-end message and the store", async () => {
    h = await startHarness({
      secrets,
      script: [{ error: { status: 401, message: `Incorrect API key provided: ${KEY}.` } }],
    });
    const end = turnEnd(await collect(await (await h.runtime.session('s')).send('hello')));
    expect(end).toMatchObject({ status: 'failed' });
    expect(end.message).toContain('Incorrect API key provided: [secret:MODEL_KEY].');
    expect(await storedError(h.dbPath, end.turnId)).toContain('[secret:MODEL_KEY]');
    expect(await storedError(h.dbPath, end.turnId)).not.toContain(KEY);
  });

  it('a failure inside toolseam: in the turn-end message and the failure log', async () => {
    const logger = memoryLogger();
    h = await startHarness({
      secrets,
      logger,
      providers: [demoProvider()],
      // A glob no engine can compile makes the deny gate throw, quoting the glob (which holds the key).
      denyList: [{ tool: `${KEY}[z-a]` }],
      script: [{ toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }],
    });
    const end = turnEnd(await collect(await (await h.runtime.session('s')).send('weather?')));
    expect(end).toMatchObject({ status: 'failed', errorCode: 'internal' });
    expect(end.message).toContain('[secret:MODEL_KEY]');
    expect(end.message).not.toContain(KEY);
    // the failure's stack is logged for --verbose (info), never shown at the default level
    const logged = logger.records.filter((r) => /^turn \S+ failed: /.test(r.message)).map((r) => r.message);
    expect(logged).toHaveLength(1);
    expect(logger.records.filter((r) => r.level === 'error')).toEqual([]);
    expect(logged.join('\n')).toContain('[secret:MODEL_KEY]');
    expect(logged.join('\n')).not.toContain(KEY);
    expect(await storedError(h.dbPath, end.turnId)).not.toContain(KEY);
  });
});
