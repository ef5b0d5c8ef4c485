import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../src/core/events.js';
import { enableSubagents } from '../../../src/runtime/subagents/index.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../../support/runtime-harness.js';
import { contract, fromLeaf } from './subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TICKETS = 'Count the open tickets';

describe('a subagent leaf whose model call is retried', () => {
  it('reaches the parent host as a model-retry event marked with the leaf, before the leaf ends', async () => {
    h = await startHarness({
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 20 },
      script: [
        {
          match: { lastUserIncludes: 'morning round' },
          toolCalls: [{ name: 'subagent_run', arguments: { tasks: [contract(TICKETS, 'Tickets')] } }],
        },
        { when: fromLeaf(TICKETS), error: { status: 429, retryAfter: 0 } },
        { when: fromLeaf(TICKETS), text: '12 tickets' },
        { match: { lastUserIncludes: 'morning round' }, echo: 'lastToolResult' },
      ],
    });
    enableSubagents(h.runtime);
    const events = await collect(await (await h.runtime.session('parent')).send('do the morning round'));
    expect(turnEnd(events).status).toBe('done');

    const retries = events.filter((e) => e.type === 'model-retry');
    expect(retries).toHaveLength(1);
    const [batch] = await h.runtime.options.store.listBatches({ parentSessionId: 'parent' });
    const leaf = batch?.leaves[0];
    expect(retries[0]).toEqual({
      type: 'model-retry',
      provider: 'openai-compatible',
      status: 429,
      reason: 'rate limited',
      attempt: 2,
      maxAttempts: 3,
      waitMs: 0,
      leaf: { batchId: batch?.id, leafId: leaf?.id, title: 'Tickets' },
    });
    // it arrives while the leaf runs: after it started, before it ended
    const leafIndex = (state: string) =>
      events.findIndex((e: RuntimeEvent) => e.type === 'leaf' && e.title === 'Tickets' && e.state === state);
    const at = events.indexOf(retries[0] as RuntimeEvent);
    expect(at).toBeGreaterThan(leafIndex('started'));
    expect(at).toBeLessThan(leafIndex('done'));
  });
});
