import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../src/core/events.js';
import type { ChatMessage } from '../../src/core/model.js';
import { enableSubagents } from '../../src/runtime/subagents/index.js';
import { LEAF_STOPPED_NOTE } from '../../src/runtime/turn/cut-off-answer.js';
import { openSessionStore } from '../../src/store/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import {
  assistantsOf,
  collect,
  type RuntimeHarness,
  startHarness,
  turnEnd,
} from '../support/runtime-harness.js';
import { contract, fromLeaf } from './subagents/subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Runs a turn, stopping it (as Ctrl-C does) once `shown` has been streamed to the host. */
async function stopAfter(events: AsyncIterable<RuntimeEvent>, controller: AbortController, shown: string) {
  const out: RuntimeEvent[] = [];
  let text = '';
  for await (const event of events) {
    out.push(event);
    if (event.type === 'text-delta') {
      text += event.text;
      if (text === shown) controller.abort();
    }
  }
  return out;
}

describe('an answer the person stopped after part of it was shown', () => {
  for (const family of ['openai', 'anthropic', 'bedrock'] as const) {
    it(`is kept in the session, marked as stopped there, so the next turn's model knows (${family})`, async () => {
      const shown = 'The three oldest cities are Jericho, Byblos and';
      h = await startHarness({
        family,
        script: [{ text: shown, cutOff: 'hold' }, { text: 'You stopped me before the third.' }],
      });
      const session = await h.runtime.session('s');
      const controller = new AbortController();
      const first = await stopAfter(
        await session.send('name three old cities', { signal: controller.signal }),
        controller,
        shown,
      );
      expect(turnEnd(first)).toMatchObject({ status: 'stopped' });
      const second: RuntimeEvent[] = [];
      for await (const e of await session.send('why did you stop?')) second.push(e);
      expect(turnEnd(second)).toMatchObject({ status: 'done' });
      const [partial, ...rest] = assistantsOf(h.standIn.requests[1]?.messages);
      expect(rest).toEqual([]);
      expect(partial?.content).toMatch(/^The three oldest cities are Jericho, Byblos and\n\n\[/);
      expect(partial?.content).toMatch(/person stopped this answer here/);
      expect(partial?.content).not.toContain('stream failed');
      expect(partial?.toolCalls ?? []).toEqual([]);
    });
  }

  it('keeps the text only, in the SQLite file: a call begun in the stopped answer is never stored', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      family: 'anthropic',
      providers: [demoProvider(counts)],
      script: [
        {
          text: 'Let me look that up.',
          toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }],
          cutOff: 'hold',
        },
      ],
    });
    const controller = new AbortController();
    const events = await stopAfter(
      await (await h.runtime.session('s')).send('weather in Oslo?', { signal: controller.signal }),
      controller,
      'Let me look that up.',
    );
    const end = turnEnd(events);
    expect(end.status).toBe('stopped');
    expect(counts.get('lookup_weather') ?? 0).toBe(0);
    const store = openSessionStore({ path: h.dbPath });
    try {
      const stored = await store.listMessages('s');
      expect(stored.map((m) => m.message.role)).toEqual(['user', 'assistant']);
      const kept = stored[1]?.message as Extract<ChatMessage, { role: 'assistant' }>;
      expect(kept.content).toMatch(/^Let me look that up\.\n\n\[The person stopped this answer here/);
      expect(kept.toolCalls ?? []).toEqual([]);
      expect(stored[1]?.turnId).toBe(end.turnId);
    } finally {
      await store.close();
    }
  });

  it('a turn stopped before any text leaves only a note that the message went unanswered', async () => {
    h = await startHarness({ script: [{ text: '', delayMs: 5_000 }, { text: 'Back.' }] });
    const session = await h.runtime.session('s');
    const controller = new AbortController();
    const events: RuntimeEvent[] = [];
    const running = (async () => {
      for await (const e of await session.send('hi', { signal: controller.signal })) events.push(e);
    })();
    setTimeout(() => controller.abort(), 200);
    await running;
    expect(turnEnd(events)).toMatchObject({ status: 'stopped' });
    const store = openSessionStore({ path: h.dbPath });
    try {
      const messages = (await store.listMessages('s')).map((m) => m.message);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(messages[1]?.content).toBe(
        '[No answer to this message: the turn was stopped before the model replied.]',
      );
    } finally {
      await store.close();
    }
  });

  it('a subagent leaf stopped by its time limit mid-answer: kept, without saying a person stopped it', async () => {
    const task = 'Count the open tickets';
    h = await startHarness({
      script: [
        {
          match: { lastUserIncludes: 'morning round' },
          toolCalls: [{ name: 'subagent_run', arguments: { tasks: [contract(task, 'Tickets')] } }],
        },
        { when: fromLeaf(task), text: 'So far I counted 12', cutOff: 'hold' },
        { match: { lastUserIncludes: 'morning round' }, echo: 'lastToolResult' },
      ],
    });
    enableSubagents(h.runtime, { leafTimeoutMs: 1_000 });
    const events = await collect(await (await h.runtime.session('parent')).send('do the morning round'));
    expect(turnEnd(events).status).toBe('done');
    const [batch] = await h.runtime.options.store.listBatches({ parentSessionId: 'parent' });
    const leaf = batch?.leaves[0];
    expect(leaf?.status).toBe('timed_out');
    const kept = (await h.runtime.options.store.listMessages(leaf?.childSessionId ?? ''))
      .map((m) => m.message)
      .filter((m) => m.role === 'assistant');
    expect(kept.map((m) => m.content)).toEqual([`So far I counted 12\n\n${LEAF_STOPPED_NOTE}`]);
  });
});
