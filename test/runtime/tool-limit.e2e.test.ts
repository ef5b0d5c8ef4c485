import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** OpenAI refuses a request with more than this many tools (provider-wire.md §2.1). */
const OPENAI_LIMIT = 128;

/** `n` tools of one MCP-like group, so that most are deferred to the catalog (`core`: offered every turn). */
function parcelTools(n: number, options: { prefix?: string; core?: boolean } = {}) {
  const prefix = options.prefix ?? 'manage_parcel';
  return inProcessProvider({
    name: `mcp/${prefix}`,
    group: { key: `mcp/${prefix}`, own: false, purpose: '' },
    tools: Array.from({ length: n }, (_, i) =>
      defineTool({
        name: `${prefix}_${i}`,
        ...(options.core ? { core: true } : {}),
        description: `Manage parcel records number ${i}.`,
        risk: 'safe',
        fields: { id: field.string({ maxLength: 40 }) },
        handler: (a) => `${i}:${a.id}`,
      }),
    ),
  });
}

/** One reply asking for the schemas of `names`, all at once. */
function askSchemas(names: readonly string[]) {
  return { toolCalls: names.map((name) => ({ name: 'tool_schema', arguments: { name } })) };
}

describe('a turn whose activations (tool_schema) would push a request past the provider limit', () => {
  it('openai: no request carries more than 128 tools, the turn ends well, and the model hears what was displaced', async () => {
    const many = Array.from({ length: 200 }, (_, i) => `manage_parcel_${299 - i}`);
    h = await startHarness({
      providers: [parcelTools(300)],
      limits: { maxToolCalls: 300 },
      script: [
        askSchemas(many),
        { toolCalls: [{ name: 'manage_parcel_100', arguments: { id: 'p1' } }] },
        { text: 'Done.' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('manage parcels'));
    const end = turnEnd(events);
    expect(end).toMatchObject({ status: 'done', message: 'Done.' });
    const requests = h.standIn.requests;
    expect(requests.map((r) => r.outcome.kind)).toEqual(['answered', 'answered', 'answered']);
    for (const r of requests) expect(r.tools.length).toBeLessThanOrEqual(OPENAI_LIMIT);
    const second = requests[1]?.tools.map((t) => t.name) ?? [];
    // the runtime's own tools travel every time; the last tool asked for is offered
    expect(second).toContain('tool_search');
    expect(second).toContain('tool_schema');
    expect(second).toContain('manage_parcel_100');
    expect(second).toHaveLength(OPENAI_LIMIT);
    // the turn's own selection made room first, then the tools asked for longest ago (299 down to 100)
    const newest = Array.from({ length: OPENAI_LIMIT - 3 }, (_, i) => `manage_parcel_${100 + i}`);
    expect([...second].sort()).toEqual([...newest, 'tool_result_read', 'tool_schema', 'tool_search'].sort());

    const answers = callEnds(events).filter((e) => e.tool === 'tool_schema');
    expect(answers).toHaveLength(200);
    expect(answers.every((e) => !e.isError)).toBe(true);
    const displacing = answers.filter((e) => e.content.includes('no longer offered'));
    expect(displacing.length).toBeGreaterThan(0);
    expect(displacing[0]?.content).toContain('at most 128 tools');
    expect(displacing[0]?.content).toMatch(
      /no longer offered with (its|their) full schemas?: `manage_parcel_\d+`/,
    );
    // the tool called after the schemas were asked for ran
    expect(callEnds(events).find((e) => e.tool === 'manage_parcel_100')?.content).toBe('100:p1');
  });

  it('openai: when tools offered every turn fill the request, the turn still runs and a tool asked for is refused plainly', async () => {
    h = await startHarness({
      providers: [parcelTools(130, { prefix: 'always', core: true }), parcelTools(60)],
      script: [
        { toolCalls: [{ name: 'tool_schema', arguments: { name: 'manage_parcel_7' } }] },
        { text: 'I could not use the parcel tool.' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('manage parcels'));
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'I could not use the parcel tool.' });
    const requests = h.standIn.requests;
    expect(requests.map((r) => r.outcome.kind)).toEqual(['answered', 'answered']);
    for (const r of requests) {
      expect(r.tools).toHaveLength(OPENAI_LIMIT);
      expect(r.tools.map((t) => t.name)).toContain('tool_schema');
      expect(r.tools.map((t) => t.name)).not.toContain('manage_parcel_7');
    }
    // what did not fit is listed in the catalog, so the model still knows it exists
    expect(requests[0]?.system).toContain('always_129');
    const answer = callEnds(events).find((e) => e.tool === 'tool_schema');
    expect(answer?.isError).toBe(true);
    expect(answer?.content).toBe(
      '`manage_parcel_7` was not added to your tools: openai-compatible takes at most 128 tools in one request, ' +
        'and the tools offered every turn already fill them. Do this part without it, and tell the user what could not be done.',
    );
  });
});
