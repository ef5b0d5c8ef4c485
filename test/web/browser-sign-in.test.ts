import { describe, expect, it } from 'vitest';
import { browserSuite, NO_BROWSER } from './page-harness.js';

const suite = browserSuite();

describe.skipIf(NO_BROWSER !== undefined)('a server off loopback', () => {
  it('shows the sign-in form, refuses a wrong token, and lets the right one in', async () => {
    const served = await suite.serve({ host: '0.0.0.0' });
    const token = served.server.token?.token as string;
    expect(token).toBeTruthy();
    const tab = await suite.tab();
    await tab.goto(`${served.base}/#/`);
    const field = tab.getByLabel('Token');
    await field.fill('not-the-token');
    await field.press('Enter');
    await tab.getByRole('alert').filter({ hasText: 'token' }).waitFor();
    await field.fill(token);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('heading', { name: 'Sessions' }).waitFor();
    await tab.getByText('No sessions yet.').waitFor();
    // The cookie is HttpOnly: the page's script cannot read it.
    expect(await tab.evaluate('document.cookie')).toBe('');
  });
});
