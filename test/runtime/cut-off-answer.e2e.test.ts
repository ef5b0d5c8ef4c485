import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import {
  assistantsOf,
  collect,
  type RuntimeHarness,
  startHarness,
  turnEnd,
} from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('an answer whose stream failed after part of it was shown', () => {
  for (const family of ['openai', 'anthropic', 'bedrock'] as const) {
    it(`is kept in the session, marked as cut off, so the next turn's model knows (${family})`, async () => {
      h = await startHarness({
        family,
        script: [
          { text: 'The three oldest cities are Jericho, Byblos and', cutOff: 'reset' },
          { text: 'Sorry, I was cut off: Aleppo.' },
        ],
      });
      const session = await h.runtime.session('s');
      const first = await collect(await session.send('name three old cities'));
      expect(turnEnd(first)).toMatchObject({ status: 'failed' });
      const second = await collect(await session.send('and the third?'));
      expect(turnEnd(second)).toMatchObject({ status: 'done' });
      const [partial, ...rest] = assistantsOf(h.standIn.requests[1]?.messages);
      expect(rest).toEqual([]);
      expect(partial?.content).toMatch(/^The three oldest cities are Jericho, Byblos and/);
      expect(partial?.content).toContain('[This answer was cut off');
      expect(partial?.toolCalls ?? []).toEqual([]);
    });
  }

  it('a failure frame after text: the same, in the SQLite file a later process reads', async () => {
    h = await startHarness({
      script: [{ text: 'Half of it', streamError: { message: 'the model crashed' } }],
    });
    const end = turnEnd(await collect(await (await h.runtime.session('s')).send('tell me')));
    expect(end.status).toBe('failed');
    const store = openSessionStore({ path: h.dbPath });
    try {
      const stored = (await store.listMessages('s')).map((m) => m.message);
      expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(stored[1]?.content).toMatch(/^Half of it\n\n\[This answer was cut off/);
      expect((await store.listMessages('s'))[1]?.turnId).toBe(end.turnId);
    } finally {
      await store.close();
    }
  });

  it('keeps the text only: a call that came whole before the failure is never sent back half-answered', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      family: 'anthropic',
      providers: [demoProvider(counts)],
      script: [
        {
          text: 'Let me look that up.',
          toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }],
          cutOff: 'reset',
        },
        { text: 'It is sunny in Oslo.' },
      ],
    });
    const session = await h.runtime.session('s');
    expect(turnEnd(await collect(await session.send('weather in Oslo?')))).toMatchObject({
      status: 'failed',
    });
    const second = await collect(await session.send('so?'));
    expect(turnEnd(second)).toMatchObject({ status: 'done', message: 'It is sunny in Oslo.' });
    expect(h.standIn.requests[1]?.outcome.kind).toBe('answered');
    const messages = h.standIn.requests[1]?.messages ?? [];
    expect(messages.some((m) => m.role === 'tool')).toBe(false);
    const [partial] = assistantsOf(messages);
    expect(partial?.content).toMatch(/^Let me look that up\./);
    expect(partial?.toolCalls ?? []).toEqual([]);
    expect(counts.get('lookup_weather') ?? 0).toBe(0);
  });

  it('a model call that failed before any text leaves only a note that the message went unanswered', async () => {
    h = await startHarness({ script: [{ error: { status: 500 } }, { text: 'Back.' }] });
    const session = await h.runtime.session('s');
    expect(turnEnd(await collect(await session.send('hi')))).toMatchObject({ status: 'failed' });
    await collect(await session.send('hi again'));
    const messages = h.standIn.requests[1]?.messages ?? [];
    // never two user messages in a row: the failed turn's place holds a note, with nothing from the model
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const [note] = assistantsOf(messages);
    expect(note?.content).toMatch(
      /^\[No answer to this message: the turn ended as failed \(.*500.*\) before the model replied\.\]$/,
    );
    expect(note?.toolCalls ?? []).toEqual([]);
  });
});
