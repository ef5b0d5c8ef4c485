import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../src/core/events.js';
import { enableSubagents } from '../../../src/runtime/subagents/index.js';
import { callEnds, collect, type RuntimeHarness, startHarness } from '../../support/runtime-harness.js';
import { contract, fromLeaf } from './subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FIRST = 'Add the Monday plans to the week note';
const SECOND = 'Add the Tuesday plans to the week note';
const OTHER = 'Write the shopping list';

/** Each leaf's `leaf` events as "title state", in the order they came. */
function progress(events: readonly RuntimeEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'leaf' ? [`${e.title} ${e.state}`] : []));
}

describe('leaves whose writes overlap', () => {
  it('run one after the other, while a leaf writing elsewhere runs beside them', async () => {
    const mutating = (writes: string[]) => ({ capability: 'mutating', writes });
    h = await startHarness({
      script: [
        {
          match: { lastUserIncludes: 'plan the week' },
          toolCalls: [
            {
              name: 'subagent_run',
              arguments: {
                tasks: [
                  contract(FIRST, 'Monday', mutating(['notes/week.md'])),
                  contract(SECOND, 'Tuesday', mutating(['./notes'])),
                  contract(OTHER, 'Shopping', mutating(['lists/shopping.md'])),
                ],
              },
            },
          ],
        },
        { when: fromLeaf(FIRST), delayMs: 1_000, text: 'added Monday' },
        { when: fromLeaf(SECOND), text: 'added Tuesday' },
        { when: fromLeaf(OTHER), text: 'wrote the list' },
        { match: { lastUserIncludes: 'plan the week' }, echo: 'lastToolResult' },
      ],
    });
    enableSubagents(h.runtime, { concurrency: 4 });
    const events = await collect(await (await h.runtime.session('parent')).send('plan the week'));
    const seen = progress(events);
    expect(seen.indexOf('Tuesday started')).toBeGreaterThan(seen.indexOf('Monday done'));
    expect(seen.indexOf('Shopping started')).toBeLessThan(seen.indexOf('Monday done'));
    const text = callEnds(events)[0]?.content ?? '';
    expect(text).toMatch(/^Batch \S+: 3 leaves \(3 done\)\./);
    expect(text).toContain('[multi_writer] (warning) leaf 2 ("Tuesday")');
    expect(text).toContain('one after the other');
  }, 30_000);
});
