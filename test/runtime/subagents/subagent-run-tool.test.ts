import { afterEach, describe, expect, it } from 'vitest';
import { enableSubagents } from '../../../src/runtime/subagents/index.js';
import { collect, type RuntimeHarness, startHarness } from '../../support/runtime-harness.js';
import { contract, fromLeaf } from './subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the batch subagent_run stores', () => {
  it('is titled after its leaves, cut before an emoji rather than inside it', async () => {
    // The joined titles reach 200 characters in the middle of the last title's emoji.
    const titles = ['A'.repeat(80), 'B'.repeat(80), `${'C'.repeat(33)}🌍 more`];
    const tasks = titles.map((title, i) => contract(`Look up item number ${i}`, title));
    h = await startHarness({
      script: [
        {
          match: { lastUserIncludes: 'morning round' },
          toolCalls: [{ name: 'subagent_run', arguments: { tasks } }],
        },
        ...tasks.map((t) => ({ when: fromLeaf(t['task'] as string), text: 'found it' })),
        { match: { lastUserIncludes: 'morning round' }, text: 'all done' },
      ],
    });
    enableSubagents(h.runtime);
    await collect(await (await h.runtime.session('parent')).send('the morning round'));
    const [batch] = await h.runtime.options.store.listBatches();
    expect(batch?.title).toBe(`${titles[0]} · ${titles[1]} · ${'C'.repeat(33)}`);
  });
});
