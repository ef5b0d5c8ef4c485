import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../src/core/events.js';
import { openSessionStore } from '../../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { demoProvider } from '../support/demo-tools.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Each family's stand-in (real SDK), the provider name it reports, and words of its refusal of a tool. */
const FAMILIES = [
  { family: 'openai', provider: 'openai-compatible', said: "Invalid schema for function 'send_email'" },
  { family: 'openai', mode: 'gemini', provider: 'gemini', said: 'function_declarations[1].parameters' },
  { family: 'anthropic', provider: 'anthropic', said: 'tools.1.custom.input_schema: JSON schema is invalid' },
  { family: 'bedrock', provider: 'bedrock', said: 'toolConfig.tools.1.toolSpec.inputSchema is invalid' },
] as const;

function quarantineEvents(events: readonly RuntimeEvent[]) {
  return events.flatMap((e) => (e.type === 'tools-quarantined' ? [e] : []));
}

/** The quarantines the harness's database holds. */
async function stored(dbPath: string) {
  const reader = openSessionStore({ path: dbPath });
  try {
    return await reader.listQuarantined();
  } finally {
    await reader.close();
  }
}

describe('a tool whose definition the provider refuses, as the provider itself points at it', () => {
  for (const c of FAMILIES) {
    it(`${c.provider}: is quarantined for the provider and model, and the request goes once more without it`, async () => {
      h = await startHarness({
        family: c.family,
        ...('mode' in c ? { mode: c.mode } : {}),
        providers: [demoProvider()],
        script: [{ text: 'I cannot send mail right now.' }, { text: 'Sunny, says the other session.' }],
      });
      h.standIn.rejectTool('send_email');
      const events = await collect(await (await h.runtime.session('s')).send('mail someone'));
      expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'I cannot send mail right now.' });
      // the person is told which tool was left out, by whom and why, in the provider's own words
      const [told] = quarantineEvents(events);
      expect(told).toMatchObject({
        provider: c.provider,
        model: 'stand-in-model',
        tools: ['send_email'],
        turnGoesOn: true,
      });
      expect(told?.said).toContain(c.said);
      expect(told?.message).toContain(`${c.provider} answered HTTP 400`);
      expect(told?.message).toContain('`toolseam tools --on send_email`');
      // once more, and a different request: without the refused tool, and the model told why
      const [first, second] = h.standIn.requests;
      expect(h.standIn.requests).toHaveLength(2);
      expect(first?.outcome.kind).toBe('rejected');
      expect(second?.outcome.kind).toBe('answered');
      expect(first?.tools.map((t) => t.name)).toContain('send_email');
      expect(second?.tools.map((t) => t.name)).toEqual(
        first?.tools.map((t) => t.name).filter((n) => n !== 'send_email'),
      );
      expect(second?.system).toContain('[left-out tools]');
      expect(second?.system).toContain('`send_email`');
      // kept in the store, with the provider's words and where it happened
      const [kept] = await stored(h.dbPath);
      expect(kept).toMatchObject({ provider: c.provider, model: 'stand-in-model', tool: 'send_email' });
      expect(kept?.said).toContain(c.said);
      expect(kept?.sessionId).toBe('s');
      const reader = openSessionStore({ path: h.dbPath });
      const audit = await reader.listAudit({ kind: 'tool_schema_rejected' });
      await reader.close();
      expect(audit).toHaveLength(1);
      expect(audit[0]?.detail).toMatchObject({ tools: ['send_email'], quarantined: true, attributed: true });
      expect(String(audit[0]?.detail['said'])).toContain(c.said);

      // a later turn of another session on this model is not offered it (and nothing is refused)
      const later = await collect(await (await h.runtime.session('other')).send('weather please'));
      expect(turnEnd(later).status).toBe('done');
      expect(quarantineEvents(later)).toEqual([]);
      const third = h.standIn.requests[2];
      expect(third?.outcome.kind).toBe('answered');
      expect(third?.tools.map((t) => t.name)).not.toContain('send_email');
      expect(third?.tools.map((t) => t.name)).toContain('lookup_weather');
      expect(third?.system).toContain('`send_email`');
    });
  }

  it('a call to a quarantined tool in a later turn is refused saying why and how to lift it', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      script: [
        { text: 'No mail tool.' },
        { toolCalls: [{ name: 'send_email', arguments: { to: 'a@example.com', body: 'hi' } }] },
        { text: 'Could not send it.' },
      ],
    });
    h.standIn.rejectTool('send_email');
    await collect(await (await h.runtime.session('s')).send('mail someone'));
    const events = await collect(await (await h.runtime.session('s')).send('mail them anyway'));
    const end = events.find((e) => e.type === 'tool-call-end');
    expect(end).toMatchObject({ tool: 'send_email', isError: true });
    expect(JSON.stringify(end)).toContain('left out on this model');
    expect(JSON.stringify(end)).toContain('toolseam tools --on send_email');
    expect(await h.runtime.pendingApprovals()).toEqual([]);
  });

  it('is sent once more at most: a second refusal in the turn ends it, and quarantines that tool too', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      // a refused request plays no turn of the script: this one answers the next turn
      script: [{ text: 'The next turn goes without both.' }],
    });
    h.standIn.rejectTool('send_email').rejectTool('archive_mail');
    const events = await collect(await (await h.runtime.session('s')).send('tidy my mail'));
    const end = turnEnd(events);
    expect(end.status).toBe('rejected');
    expect(end.message).toContain('once more without "send_email"');
    expect(end.message).toContain('"archive_mail"');
    expect(end.message).toContain('it does not send a third');
    expect(h.standIn.requests.map((r) => r.outcome.kind)).toEqual(['rejected', 'rejected']);
    expect(quarantineEvents(events).map((e) => [e.tools, e.turnGoesOn])).toEqual([
      [['send_email'], true],
      [['archive_mail'], false],
    ]);
    expect((await stored(h.dbPath)).map((q) => q.tool).sort()).toEqual(['archive_mail', 'send_email']);
    const next = await collect(await (await h.runtime.session('s')).send('and now?'));
    expect(turnEnd(next)).toMatchObject({ status: 'done', message: 'The next turn goes without both.' });
    expect(h.standIn.requests[2]?.tools.map((t) => t.name)).not.toContain('archive_mail');
  });

  it('a rejection the seam cannot attribute (a loose mention) still ends the turn, and nothing is quarantined', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      script: [{ error: { status: 400, message: 'Invalid request: tools[0] has a schema problem.' } }],
    });
    const events = await collect(await (await h.runtime.session('s')).send('weather'));
    const end = turnEnd(events);
    expect(end.status).toBe('rejected');
    expect(end.message).toContain('switch that tool off on the Tools page');
    expect(end.message).toContain('`toolseam tools --off lookup_weather`');
    expect(quarantineEvents(events)).toEqual([]);
    expect(h.standIn.requests).toHaveLength(1);
    expect(await stored(h.dbPath)).toEqual([]);
  });

  it('a core tool is never quarantined: its refusal ends the turn', async () => {
    const core = inProcessProvider({
      name: 'platform-like',
      tools: [
        defineTool({
          name: 'read_notes',
          description: 'Read the notes.',
          risk: 'safe',
          core: true,
          fields: { q: field.string({ maxLength: 40 }) },
          handler: () => 'none',
        }),
      ],
    });
    h = await startHarness({ providers: [core, demoProvider()], script: [{ text: 'never reached' }] });
    h.standIn.rejectTool('read_notes');
    const events = await collect(await (await h.runtime.session('s')).send('read my notes'));
    const end = turnEnd(events);
    expect(end.status).toBe('rejected');
    // the sentence names the tool and the provider, and quotes what it said
    expect(end.message).toContain('"read_notes"');
    expect(end.message).toContain(
      "openai-compatible answered HTTP 400: Invalid schema for function 'read_notes'",
    );
    expect(end.message).not.toContain('disabledTools');
    expect(end.message).not.toContain('--off');
    expect(quarantineEvents(events)).toEqual([]);
    expect(h.standIn.requests).toHaveLength(1);
    expect(await stored(h.dbPath)).toEqual([]);
  });
});
