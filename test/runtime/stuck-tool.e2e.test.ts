import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../src/core/events.js';
import { enableSubagents } from '../../src/runtime/subagents/index.js';
import { defineTool, inProcessProvider } from '../../src/tools/index.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';
import { contract, fromLeaf, leafStates } from './subagents/subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A tool whose handler never settles and never looks at its signal. */
const stuck = defineTool({
  name: 'stuck_lookup',
  description: 'Looks something up; this one never comes back.',
  risk: 'safe',
  readOnly: true,
  handler: () => new Promise<never>(() => {}),
});
const stuckProvider = () => inProcessProvider({ name: 'demo', tools: [stuck] });

describe('a tool that never returns (real SDK, loopback stand-in, SQLite)', () => {
  it('does not hold a stopped turn: the call ends as stopped and the turn as stopped', async () => {
    h = await startHarness({
      providers: [stuckProvider()],
      script: [{ toolCalls: [{ name: 'stuck_lookup', arguments: {} }] }, { echo: 'lastToolResult' }],
    });
    const session = await h.runtime.session('s');
    const events: RuntimeEvent[] = [];
    for await (const event of await session.send('look it up')) {
      events.push(event);
      if (event.type === 'tool-call-start') setTimeout(() => session.stop(), 50);
    }
    expect(turnEnd(events).status).toBe('stopped');
    const [end] = callEnds(events);
    expect(end).toMatchObject({ tool: 'stuck_lookup', isError: true });
    expect(end?.content).toContain('stuck_lookup was stopped while it ran');
  });

  it("does not hold a subagent batch: the leaf's time limit still ends it", async () => {
    const TASK = 'Look the thing up in the archive';
    h = await startHarness({
      providers: [stuckProvider()],
      script: [
        {
          match: { lastUserIncludes: 'round' },
          toolCalls: [{ name: 'subagent_run', arguments: { tasks: [contract(TASK, 'Lookup')] } }],
        },
        { when: fromLeaf(TASK), toolCalls: [{ name: 'stuck_lookup', arguments: {} }] },
        { match: { lastUserIncludes: 'round' }, echo: 'lastToolResult' },
      ],
    });
    enableSubagents(h.runtime, { leafTimeoutMs: 1_000 });
    const events = await collect(await (await h.runtime.session('parent')).send('do the round'));
    expect(leafStates(events, 'Lookup')).toContain('timed_out');
    expect(turnEnd(events).status).toBe('done');
    expect(turnEnd(events).message).toContain('stuck_lookup was stopped while it ran');
  });
});
