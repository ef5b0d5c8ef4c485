import { afterEach, describe, expect, it } from 'vitest';
import { wireName } from '../../src/seam/index.js';
import { openSessionStore } from '../../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { demoProvider } from '../support/demo-tools.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** `n` tools of one MCP-like group, each about a distinct subject. */
function manyTools(n: number) {
  const subjects = [
    'invoice',
    'calendar',
    'ticket',
    'playlist',
    'garden',
    'recipe',
    'budget',
    'flight',
    'parcel',
    'lesson',
  ];
  return inProcessProvider({
    name: 'mcp/bulk',
    group: { key: 'mcp/bulk', own: false, purpose: '' },
    tools: Array.from({ length: n }, (_, i) =>
      defineTool({
        name: `manage_${subjects[i % subjects.length]}_${i}`,
        description: `Manage ${subjects[i % subjects.length]} records number ${i}.`,
        risk: 'safe',
        fields: { id: field.string({ maxLength: 40 }) },
        handler: (a) => `${i}:${a.id}`,
      }),
    ),
  });
}

describe('the tool surface', () => {
  it('offers at most 48 schemas, lists the rest in the catalog note, and adds the meta-tools', async () => {
    h = await startHarness({ providers: [demoProvider(), manyTools(120)], script: [{ text: 'ok' }] });
    await collect(await (await h.runtime.session('s')).send('What is the weather forecast in Oslo?'));
    const request = h.standIn.requests[0];
    const names = request?.tools.map((t) => t.name) ?? [];
    expect(names).toContain('lookup_weather');
    expect(names).toContain('tool_search');
    expect(names).toContain('tool_schema');
    expect(names.length).toBeLessThanOrEqual(48 + 2);
    expect(request?.system).toContain('[tool catalog]');
    expect(request?.system).toContain('tool_search(');
  });

  it('a deferred tool becomes callable with its schema after tool_schema, within the turn', async () => {
    h = await startHarness({
      providers: [demoProvider(), manyTools(120)],
      script: [
        { toolCalls: [{ name: 'tool_schema', arguments: { name: 'manage_parcel_118' } }] },
        { toolCalls: [{ name: 'manage_parcel_118', arguments: { id: 'p-1' } }] },
        { echo: 'lastToolResult' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('weather please'));
    expect(h.standIn.requests[1]?.tools.map((t) => t.name)).toContain('manage_parcel_118');
    expect(turnEnd(events).message).toBe('118:p-1');
  });

  it('answers tool_search over the whole catalog', async () => {
    h = await startHarness({
      providers: [demoProvider(), manyTools(120)],
      script: [
        { toolCalls: [{ name: 'tool_search', arguments: { query: 'parcel records' } }] },
        { echo: 'lastToolResult' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('hello'));
    expect(callEnds(events)[0]?.content).toMatch(/manage_parcel_\d+/);
  });

  it('answers tool_search for a wire name cut to fit with the tool behind it', async () => {
    // Two long names that differ only past the cut: their wire names differ only by the hash.
    const stem = `mcp/files/${'move_the_file_into_the_archive_folder_'.repeat(2)}`;
    const files = inProcessProvider({
      name: 'mcp/files',
      group: { key: 'mcp/files', own: false, purpose: '' },
      tools: ['first', 'second'].map((end) =>
        defineTool({
          name: `${stem}${end}`,
          description: 'Move a file into the archive folder.',
          risk: 'safe',
          fields: { path: field.string({ maxLength: 200 }) },
          handler: () => 'moved',
        }),
      ),
    });
    const real = `${stem}second`;
    h = await startHarness({
      providers: [manyTools(120), files],
      script: [
        { toolCalls: [{ name: 'tool_search', arguments: { query: wireName(real), limit: 1 } }] },
        { echo: 'lastToolResult' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('hello'));
    expect(callEnds(events)[0]?.content.split('\n')[1]).toBe(
      `- ${real}: Move a file into the archive folder.`,
    );
  });

  it('tool_schema says why a tool the agent may not use cannot be used, not that it does not exist', async () => {
    h = await startHarness({
      providers: [demoProvider(), manyTools(120)],
      agents: { reader: { tools: ['lookup_*', 'manage_*'] } },
      script: [{ toolCalls: [{ name: 'tool_schema', arguments: { name: 'send_email' } }] }, { text: 'ok' }],
    });
    const events = await collect(await (await h.runtime.session('s', { agent: 'reader' })).send('mail Anna'));
    const answer = callEnds(events)[0];
    expect(answer?.isError).toBe(true);
    expect(answer?.content).toContain('the agent "reader" may use only the tools on its tool list');
    expect(answer?.content).not.toContain('tool_search');
  });

  it('tool_schema says why a tool the seam left out cannot be used', async () => {
    // Both names would travel as "mcp_files_a_b": neither can be offered.
    const clash = inProcessProvider({
      name: 'clash',
      tools: ['mcp/files/a_b', 'mcp/files/a/b'].map((name) =>
        defineTool({ name, description: 'A clashing tool.', risk: 'safe', handler: () => 'ran' }),
      ),
    });
    h = await startHarness({
      providers: [clash, manyTools(120)],
      script: [
        { toolCalls: [{ name: 'tool_schema', arguments: { name: 'mcp/files/a/b' } }] },
        { text: 'ok' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('use mcp/files/a/b'));
    const answer = callEnds(events)[0];
    expect(answer?.isError).toBe(true);
    expect(answer?.content).toContain('cannot be offered to models');
    expect(answer?.content).toContain('mcp_files_a_b');
  });

  it('rebuilds the catalog at the next turn when the tools changed, never mid-turn', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
    });
    const session = await h.runtime.session('s');
    await collect(await session.send('first'));
    h.registry.setEnabled('archive_mail', false);
    const second = await collect(await session.send('second'));
    expect(second.some((e) => e.type === 'notice' && /1 removed/.test(e.message))).toBe(true);
    expect(h.standIn.requests[1]?.tools.map((t) => t.name)).not.toContain('archive_mail');
    const third = await collect(await session.send('third'));
    expect(third.some((e) => e.type === 'notice')).toBe(false);
  });

  it('tools already called in the session stay offered (sticky)', async () => {
    h = await startHarness({
      providers: [demoProvider(), manyTools(120)],
      script: [
        { toolCalls: [{ name: 'manage_garden_4', arguments: { id: 'g' } }] },
        { text: 'done' },
        { text: 'later' },
      ],
    });
    const session = await h.runtime.session('s');
    await collect(await session.send('garden'));
    await collect(await session.send('something unrelated about music'));
    expect(h.standIn.requests[2]?.tools.map((t) => t.name)).toContain('manage_garden_4');
  });
});

describe("Gemini 3's thought signatures", () => {
  it('go back with their calls in every later request, read from the session store', async () => {
    h = await startHarness({
      family: 'openai',
      mode: 'gemini',
      providers: [demoProvider()],
      script: [
        { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
        { text: 'Sunny it is.' },
        { text: 'Still sunny.' },
      ],
    });
    const session = await h.runtime.session('s');
    const end = turnEnd(await collect(await session.send('weather in Oslo?')));
    // the stand-in refuses a replayed call without the signature it gave
    expect(end).toMatchObject({ status: 'done', message: 'Sunny it is.' });
    const reader = openSessionStore({ path: h.dbPath });
    const stored = (await reader.listMessages('s')).find((m) => m.message.role === 'assistant')?.message;
    await reader.close();
    expect(stored?.role === 'assistant' && stored.toolCalls?.[0]?.signature).toMatch(/^sig_/);
    const next = turnEnd(await collect(await session.send('and now?')));
    expect(next).toMatchObject({ status: 'done', message: 'Still sunny.' });
    expect(h.standIn.requests.map((r) => r.outcome.kind)).toEqual(['answered', 'answered', 'answered']);
  });
});

describe('a provider rejecting a tool definition', () => {
  it('goes on without the tool; once its quarantine is lifted and it is switched off, the next turn neither offers nor mentions it', async () => {
    h = await startHarness({
      family: 'openai',
      mode: 'gemini',
      providers: [demoProvider()],
      script: [{ text: 'went on without it' }, { text: 'fine now' }],
    });
    h.standIn.rejectTool('send_email');
    const session = await h.runtime.session('s');
    const end = turnEnd(await collect(await session.send('mail someone')));
    expect(end).toMatchObject({ status: 'done', message: 'went on without it' });
    expect(h.standIn.requests.map((r) => r.outcome.kind)).toEqual(['rejected', 'answered']);
    expect(await h.runtime.options.store.liftQuarantine({ tool: 'send_email' })).toHaveLength(1);
    h.registry.setEnabled('send_email', false);
    const next = turnEnd(await collect(await session.send('try again')));
    expect(next).toMatchObject({ status: 'done', message: 'fine now' });
    const last = h.standIn.requests[2];
    expect(last?.tools.map((t) => t.name)).not.toContain('send_email');
    expect(last?.system).not.toContain('send_email');
  });
});
