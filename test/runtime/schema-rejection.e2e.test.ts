import { afterEach, describe, expect, it } from 'vitest';
import type { ToolProvider } from '../../src/core/tool.js';
import { openSessionStore } from '../../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { demoProvider } from '../support/demo-tools.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Each family's stand-in, the provider name it reports, and words of its refusal of a tool. */
const FAMILIES = [
  { family: 'openai', provider: 'openai-compatible', said: "Invalid schema for function 'send_email'" },
  { family: 'openai', mode: 'gemini', provider: 'gemini', said: 'function_declarations[1].parameters' },
  { family: 'anthropic', provider: 'anthropic', said: 'tools.1.custom.input_schema: JSON schema is invalid' },
  { family: 'bedrock', provider: 'bedrock', said: 'toolConfig.tools.1.toolSpec.inputSchema is invalid' },
] as const;

describe('what a person is told when the provider refuses a tool definition', () => {
  for (const c of FAMILIES) {
    it(`${c.provider}: the sentence names the provider and quotes what it said, and the audit keeps it`, async () => {
      h = await startHarness({
        family: c.family,
        ...('mode' in c ? { mode: c.mode } : {}),
        providers: [demoProvider()],
        script: [{ text: 'never reached' }],
      });
      h.standIn.rejectTool('send_email');
      const end = turnEnd(await collect(h.runtime.session('s').send('mail someone')));
      expect(end.status).toBe('rejected');
      expect(end.message).toContain('"send_email"');
      expect(end.message).toContain(`${c.provider} answered HTTP 400`);
      expect(end.message).toContain(c.said);
      const reader = openSessionStore({ path: h.dbPath });
      const audit = reader.listAudit({ kind: 'tool_schema_rejected' });
      reader.close();
      expect(audit).toHaveLength(1);
      expect(String(audit[0]?.detail['said'])).toContain(c.said);
    });
  }
});

/** `n` tools of one MCP-like group, so that most are deferred to the catalog. */
function parcelTools(n: number) {
  return inProcessProvider({
    name: 'mcp/bulk',
    group: { key: 'mcp/bulk', own: false, purpose: '' },
    tools: Array.from({ length: n }, (_, i) =>
      defineTool({
        name: `manage_parcel_${i}`,
        description: `Manage parcel records number ${i}.`,
        risk: 'safe',
        fields: { id: field.string({ maxLength: 40 }) },
        handler: (a) => `${i}:${a.id}`,
      }),
    ),
  });
}

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
      const events = await collect(h.runtime.session('s').send('weather in Oslo please'));
      const end = turnEnd(events);
      expect(end).toMatchObject({
        status: 'done',
        message: 'Sunny in Oslo; the parcel tool is not available.',
      });
      expect(counts.get('lookup_weather')).toBe(1);
      const asked = callEnds(events).filter((e) => e.tool === 'tool_schema');
      expect(asked.map((e) => e.isError)).toEqual([false, true]);
      expect(asked[1]?.content).toContain('refused the definition of `manage_parcel_118`');
      const notices = events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain('"manage_parcel_118"');
      expect(notices[0]).toContain(`${family === 'openai' ? 'openai-compatible' : family} answered HTTP 400`);
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

  it('a refusal of a tool the turn offered from its start still ends the turn', async () => {
    h = await startHarness({ providers: [demoProvider()], script: [{ text: 'never reached' }] });
    h.standIn.rejectTool('lookup_weather');
    const end = turnEnd(await collect(h.runtime.session('s').send('weather in Oslo')));
    expect(end.status).toBe('rejected');
    expect(h.standIn.requests).toHaveLength(1);
  });
});

describe('how to turn a refused tool off', () => {
  it('the sentence says where: "disabledTools" in toolseam.json, under the real name', async () => {
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
    h = await startHarness({ providers: [notes], script: [{ text: 'never reached' }] });
    h.standIn.rejectTool('mcp_notes_search');
    const end = turnEnd(await collect(h.runtime.session('s').send('find my notes')));
    expect(end.message).toContain('turn that tool off and send your message again');
    expect(end.message).toContain(
      '"mcp/notes/search" under "disabledTools" in toolseam.json, then start toolseam again',
    );
  });
});
