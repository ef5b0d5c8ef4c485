import { describe, expect, it } from 'vitest';
import { browserSuite, NO_BROWSER, pageErrors, sendMessage, startSession } from './page-harness.js';

const suite = browserSuite();

describe.skipIf(NO_BROWSER !== undefined)('the sessions list', () => {
  it('opens a session from the list with the keyboard, and deletes one after asking once more', async () => {
    const served = await suite.serve({ script: [{ text: 'kept answer' }] });
    const tab = await suite.tab();
    const errors = pageErrors(tab);
    await startSession(tab, served.base, 'to keep');
    await sendMessage(tab, 'hello');
    await tab.locator('.msg.assistant').filter({ hasText: 'kept answer' }).waitFor();
    await startSession(tab, served.base, 'to delete');

    await tab.getByRole('link', { name: 'Sessions', exact: true }).click();
    const items = tab.locator('li.session');
    await items.nth(1).waitFor();
    const kept = tab.getByRole('link', { name: 'to keep', exact: true });
    await kept.focus();
    await tab.keyboard.press('Enter');
    await tab.locator('.msg.assistant').filter({ hasText: 'kept answer' }).waitFor();
    await tab.locator('.msg.user').filter({ hasText: 'hello' }).waitFor();

    await tab.goBack();
    await tab.getByRole('button', { name: 'Delete to delete' }).click();
    await tab.getByRole('button', { name: 'Delete for good' }).click();
    await items.filter({ hasText: 'to delete' }).waitFor({ state: 'detached' });
    expect(await items.count()).toBe(1);
    const listed = (await (await fetch(`${served.base}/api/sessions`)).json()) as {
      sessions: { title: string }[];
    };
    expect(listed.sessions.map((s) => s.title)).toEqual(['to keep']);
    expect(errors).toEqual([]);
  });
});
