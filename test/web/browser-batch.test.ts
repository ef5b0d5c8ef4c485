import { describe, expect, it } from 'vitest';
import { enableSubagents } from '../../src/runtime/subagents/index.js';
import { contract, fromLeaf } from '../runtime/subagents/subagent-fixtures.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { browserSuite, NO_BROWSER, screenshot, sendMessage, startSession } from './page-harness.js';

const suite = browserSuite();

const ARCHIVE = 'Archive mail number 7 from the inbox';
const WEATHER = 'Look up the weather in Paris for tomorrow';

describe.skipIf(NO_BROWSER !== undefined)('a subagent batch on the page', () => {
  it("shows each leaf's progress, and a leaf's approval is answered on the page", async () => {
    const counts: RunCounts = new Map();
    const served = await suite.serve({
      providers: [demoProvider(counts)],
      script: [
        {
          match: { lastUserIncludes: 'morning round' },
          toolCalls: [
            {
              name: 'subagent_run',
              arguments: {
                tasks: [
                  contract(ARCHIVE, 'Archive', { capability: 'mutating' }),
                  contract(WEATHER, 'Weather'),
                ],
              },
            },
          ],
        },
        { when: fromLeaf(ARCHIVE), toolCalls: [{ name: 'archive_mail', arguments: { id: 7 } }] },
        { when: fromLeaf(ARCHIVE), echo: 'lastToolResult' },
        { when: fromLeaf(WEATHER), text: 'Sunny tomorrow.' },
        { match: { lastUserIncludes: 'morning round' }, echo: 'lastToolResult' },
      ],
    });
    enableSubagents(served.runtime);
    const tab = await suite.tab();
    await startSession(tab, served.base, 'batch');
    await sendMessage(tab, 'do the morning round');
    const batch = tab.locator('.batch');
    await batch.locator('.leaf.approval-needed').filter({ hasText: 'Archive' }).waitFor();
    await batch.locator('.leaf.done').filter({ hasText: 'Weather' }).waitFor();
    await expect(batch.getByRole('heading').textContent()).resolves.toBe('Subagents: 1 of 2 finished');
    const card = tab.locator('.approval');
    await expect(card.textContent()).resolves.toContain('Asked by the subagent “Archive”');
    await screenshot(tab, 'chat-batch');
    await card.getByRole('button', { name: 'Approve once' }).click();
    await tab.locator('.msg.assistant').filter({ hasText: '2 leaves (2 done)' }).waitFor();
    expect(counts.get('archive_mail')).toBe(1);
  });
});
