import { afterEach, describe, expect, it } from 'vitest';
import type { ToolProvider } from '../../../src/core/tool.js';
import type { ScriptRequest } from '../../../src/testing/recorded-request.js';
import type { ScriptTurn } from '../../../src/testing/script.js';
import {
  callEnds,
  collect,
  type RuntimeHarness,
  startHarness,
  turnEnd,
} from '../../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A command whose output is far over the bound: numbered lines, one needle, then its exit status. */
const output = [
  ...Array.from(
    { length: 3000 },
    (_, i) => `line ${i + 1}: ${i === 1999 ? 'the NEEDLE is here' : 'nothing much'}`,
  ),
  'exit status 2',
].join('\n');

const command: ToolProvider = {
  name: 'shell',
  app: 'shell',
  own: false,
  listTools: async () => [
    {
      name: 'run_build',
      description: 'Run the build.',
      parameters: { type: 'object', properties: {} },
      risk: 'safe',
      requiresApproval: false,
    },
  ],
  invoke: async () => ({ content: output, isError: false }),
};

const idIn = (r: ScriptRequest) =>
  /kept as \\?"(result-[0-9a-f]{8})/.exec(JSON.stringify(r.messages))?.[1] ?? '';
const read = (args: (id: string) => Record<string, unknown>): ScriptTurn => ({
  respond: (r) => ({
    toolCalls: [{ name: 'tool_result_read', arguments: { id: idIn(r), ...args(idIn(r)) } }],
  }),
});

describe('a tool result over the bound', () => {
  it('is kept whole; the model gets its start and end with an id, and tool_result_read pages, finds and reads lines', async () => {
    h = await startHarness({
      providers: [command],
      script: [
        { toolCalls: [{ name: 'run_build', arguments: {} }] },
        read(() => ({ offset: 30_000, length: 100 })),
        read(() => ({ pattern: 'needle' })),
        read(() => ({ line_from: 2000, line_to: 2001 })),
        { toolCalls: [{ name: 'tool_result_read', arguments: { id: 'result-00000000' } }] },
        { text: 'The build failed with status 2.' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('build it'));
    expect(turnEnd(events)).toMatchObject({ status: 'done' });
    const [first = '', part, found, lines, unknown] = callEnds(events).map((e) => e.content ?? '');
    expect(first.length).toBeLessThanOrEqual(20_000);
    expect(first.startsWith('line 1: nothing much')).toBe(true);
    expect(first.endsWith('line 3000: nothing much\nexit status 2')).toBe(true);
    expect(first).toMatch(/call tool_result_read with id "result-[0-9a-f]{8}"/);
    expect(part).toContain(`[characters 30000–30100 of ${output.length}]\n${output.slice(30_000, 30_100)}`);
    expect(part).toContain('call tool_result_read with offset 30100');
    expect(found).toMatch(/^1 matching line\(s\):\n2000 \(offset \d+\): line 2000: the NEEDLE is here/);
    expect(lines).toBe(
      '2000: line 2000: the NEEDLE is here\n2001: line 2001: nothing much\n[lines 2002–3001 follow]',
    );
    expect(unknown).toContain('there is no kept result "result-00000000" in this session');
    // the tool is offered in every request
    for (const r of h.standIn.requests) expect(r.tools.map((t) => t.name)).toContain('tool_result_read');
  });
});
