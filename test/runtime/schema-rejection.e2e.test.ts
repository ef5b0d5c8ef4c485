import { afterEach, describe, expect, it } from 'vitest';
import type { ToolProvider } from '../../src/core/tool.js';
import { demoProvider, parcelTools } from '../support/demo-tools.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a tool the model asked for mid-turn (tool_schema) whose definition the provider refuses', () => {
  for (const family of ['openai', 'anthropic'] as const) {
    it(`${family}: is left out and the turn goes on, the model and the person told why`, async () => {
      const counts = new Map<string, number>();
      h = await startHarness({
        family,
        providers: [demoProvider(counts), parcelTools(120)],
        script: [
          { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
          { toolCalls: [{ name: 'tool_schema', arguments: { name: 'manage_parcel_118' } }] },
          // asked for again after it was left out: it stays out
          { toolCalls: [{ name: 'tool_schema', arguments: { name: 'manage_parcel_118' } }] },
          { text: 'Sunny in Oslo; the parcel tool is not available.' },
        ],
      });
      h.standIn.rejectTool('manage_parcel_118');
      const events = await collect(await (await h.runtime.session('s')).send('weather in Oslo please'));
      const end = turnEnd(events);
      expect(end).toMatchObject({
        status: 'done',
        message: 'Sunny in Oslo; the parcel tool is not available.',
      });
      expect(counts.get('lookup_weather')).toBe(1);
      const asked = callEnds(events).filter((e) => e.tool === 'tool_schema');
      expect(asked.map((e) => e.isError)).toEqual([false, true]);
      expect(asked[1]?.content).toContain('refused the definition of `manage_parcel_118`');
      // the provider points at it itself: quarantined for this model, and the person told so once
      expect(events.some((e) => e.type === 'notice' && e.message.includes('manage_parcel_118'))).toBe(false);
      const told = events.flatMap((e) => (e.type === 'tools-quarantined' ? [e] : []));
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ tools: ['manage_parcel_118'], turnGoesOn: true });
      expect(told[0]?.message).toContain(
        `${family === 'openai' ? 'openai-compatible' : family} answered HTTP 400`,
      );
      const requests = h.standIn.requests;
      expect(requests.map((r) => r.outcome.kind)).toEqual([
        'answered',
        'answered',
        'rejected',
        'answered',
        'answered',
      ]);
      for (const later of requests.slice(3)) {
        expect(later.tools.map((t) => t.name)).not.toContain('manage_parcel_118');
        expect(later.system).toContain('manage_parcel_118');
      }
    });
  }
});

describe('how to turn a refused tool off', () => {
  it('a refusal the seam cannot attribute ends the turn; the sentence says how: its switch (page or CLI), under the real name, then send again — and that works', async () => {
    const notes: ToolProvider = {
      name: 'mcp/notes',
      app: 'notes',
      own: false,
      listTools: async () => [
        {
          name: 'mcp/notes/search',
          description: 'Search the notes.',
          parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
          risk: 'safe',
          requiresApproval: false,
        },
      ],
      invoke: async () => ({ content: 'none', isError: false }),
    };
    // a loose mention of a tool's place, in no provider's own path form: not enough to leave it out
    const loose = { status: 400, message: 'Invalid request: tools[0] has a schema problem.' };
    h = await startHarness({
      providers: [notes],
      script: [{ error: loose }, { text: 'No notes tool today.' }],
    });
    const end = turnEnd(await collect(await (await h.runtime.session('s')).send('find my notes')));
    expect(end.message).toContain(
      'switch that tool off on the Tools page (or run `toolseam tools --off mcp/notes/search`), then send your message again',
    );
    expect(end.message).not.toContain('disabledTools');
    expect(end.message).not.toContain('start toolseam again');
    // doing what it says: switched off, sent again, and the turn goes on without it
    await h.runtime.switchTool('mcp/notes/search', false);
    const again = turnEnd(await collect(await (await h.runtime.session('s')).send('find my notes')));
    expect(again).toMatchObject({ status: 'done', message: 'No notes tool today.' });
    expect(h.standIn.requests[1]?.tools.map((t) => t.name)).not.toContain('mcp_notes_search');
    expect(h.standIn.requests[0]?.tools.map((t) => t.name)).toContain('mcp_notes_search');
  });
});
