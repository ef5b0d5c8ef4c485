import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/logger.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { loneHighSurrogateAt } from '../../src/testing/anthropic-wire.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Half of 😀: what text cut with `slice` in the middle of the emoji ends in. */
const HALF = '\uD83D';

/** A notes server whose author cut its texts inside an emoji, and whose search answers the same way. */
function cutNotes(): ToolProvider {
  return {
    name: 'mcp/notes',
    app: 'notes',
    own: false,
    listTools: async () => [
      {
        name: 'mcp/notes/search',
        description: `Searches the notes 😀 and tags ${HALF}`,
        parameters: {
          type: 'object',
          properties: {
            q: { type: 'string', description: `what to look for ${HALF}` },
            mood: { type: 'string', enum: ['calm', `happy ${HALF}`] },
          },
          required: ['q'],
        },
        risk: 'safe',
        requiresApproval: false,
      },
    ],
    invoke: async () => ({ content: `found: groceries 🛒 and ${HALF}`, isError: false }),
  };
}

// The Messages API refuses a whole request whose JSON holds half of a character ("no low surrogate in
// string"), naming nothing in it: one tool or one tool result would fail every later request.
describe('text holding half of a character, on the Anthropic stand-in', () => {
  it('is refused by the stand-in as the API refuses it', () => {
    const json = JSON.stringify({ a: `x${HALF}`, b: '😀', c: '\\ud83d' });
    expect(loneHighSurrogateAt(json)).toBe(json.indexOf('\\ud83d'));
    expect(loneHighSurrogateAt(JSON.stringify({ b: '😀', c: '\\ud83d' }))).toBeUndefined();
  });

  it('travels with U+FFFD in its place: a tool’s description and schema, and a tool’s result', async () => {
    const logger = memoryLogger();
    h = await startHarness({
      family: 'anthropic',
      providers: [cutNotes()],
      logger,
      script: [
        { toolCalls: [{ name: 'mcp_notes_search', arguments: { q: 'food' } }] },
        { text: 'You noted groceries.' },
        { text: 'Still groceries.' },
      ],
    });
    const session = await h.runtime.session('s');
    expect(turnEnd(await collect(await session.send('what did I note?')))).toMatchObject({ status: 'done' });
    expect(turnEnd(await collect(await session.send('and again?')))).toMatchObject({
      status: 'done',
      message: 'Still groceries.',
    });

    const requests = h.standIn.requests;
    expect(requests.map((r) => r.outcome.kind)).toEqual(['answered', 'answered', 'answered']);
    for (const r of requests) expect(loneHighSurrogateAt(r.rawBody)).toBeUndefined();
    const tool = requests[0]?.tools.find((t) => t.name === 'mcp_notes_search');
    expect(tool?.description).toBe('Searches the notes 😀 and tags \uFFFD');
    expect(tool?.parameters).toMatchObject({
      properties: {
        q: { type: 'string', description: 'what to look for \uFFFD' },
        mood: { type: 'string', enum: ['calm', 'happy \uFFFD'] },
      },
    });
    const results = requests[2]?.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['found: groceries 🛒 and \uFFFD']);

    const warnings = logger.records.filter((r) => r.message.includes('half of a character'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain(
      '`description`, `parameters.properties.q.description`, `parameters.properties.mood.enum[1]`',
    );
  });

  it('travels with U+FFFD in the catalog of deferred tools, in the system prompt', async () => {
    const notebook: ToolProvider = {
      name: 'mcp/notebook',
      app: 'notebook',
      own: false,
      listTools: async () =>
        Array.from({ length: 120 }, (_, i) => ({
          name: `mcp/notebook/note_${i}`,
          description: `Reads note ${i} of the notebook`,
          parameters: { type: 'object', properties: {} },
          risk: 'safe' as const,
          requiresApproval: false,
        })),
      invoke: async () => ({ content: 'a note', isError: false }),
    };
    const weather: ToolProvider = {
      name: 'mcp/weather',
      app: 'weather',
      own: false,
      listTools: async () => [
        {
          name: 'mcp/weather/forecast',
          description: `Forecasts rain ${HALF}`,
          parameters: { type: 'object', properties: {} },
          risk: 'safe',
          requiresApproval: false,
        },
      ],
      invoke: async () => ({ content: 'sunny', isError: false }),
    };
    h = await startHarness({
      family: 'anthropic',
      providers: [notebook, weather],
      script: [{ text: 'Noted.' }],
    });
    const end = turnEnd(
      await collect(await (await h.runtime.session('s')).send('read my note of the notebook')),
    );
    expect(end).toMatchObject({ status: 'done', message: 'Noted.' });
    const request = h.standIn.requests[0];
    expect(request?.tools.map((t) => t.name)).not.toContain('mcp_weather_forecast');
    expect(request?.system).toContain('Forecasts rain \uFFFD');
    expect(loneHighSurrogateAt(request?.rawBody ?? '')).toBeUndefined();
  });
});
