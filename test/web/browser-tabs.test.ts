import { describe, expect, it } from 'vitest';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { browserSuite, NO_BROWSER, screenshot, sendMessage, startSession } from './page-harness.js';

const suite = browserSuite();

describe.skipIf(NO_BROWSER !== undefined)('two tabs on one session', () => {
  it('see the same stream, and an approval answered in one disappears from the other', async () => {
    const counts: RunCounts = new Map();
    const served = await suite.serve({
      script: [
        {
          text: 'I will write to Ana now.',
          toolCalls: [{ name: 'send_email', arguments: { to: 'ana@example.com', body: 'Five it is.' } }],
        },
        { text: 'Sent, and Ana has it.' },
      ],
      providers: [demoProvider(counts)],
    });
    const one = await suite.tab();
    const id = await startSession(one, served.base, 'shared');
    const two = await suite.tab();
    await two.goto(`${served.base}/#/sessions/${encodeURIComponent(id)}`);
    await two.getByRole('heading', { name: 'shared' }).waitFor();
    await sendMessage(one, 'write to Ana');
    for (const tab of [one, two]) {
      await tab.locator('.msg.assistant').filter({ hasText: 'I will write to Ana now.' }).waitFor();
      await tab.locator('.approval').waitFor();
    }
    await screenshot(one, 'chat-approval');
    await two.getByRole('button', { name: 'Approve once' }).click();
    await one.locator('.approval').waitFor({ state: 'detached' });
    for (const tab of [one, two]) {
      await tab.locator('.msg.assistant').filter({ hasText: 'Sent, and Ana has it.' }).waitFor();
    }
    expect(counts.get('send_email')).toBe(1);
  });
});
