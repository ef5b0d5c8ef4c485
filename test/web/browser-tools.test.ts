import { describe, expect, it } from 'vitest';
import { demoProvider } from '../support/demo-tools.js';
import {
  browserSuite,
  NO_BROWSER,
  type ServedPage,
  screenshot,
  sendMessage,
  startSession,
} from './page-harness.js';

const suite = browserSuite();

const offered = (served: ServedPage, i: number) => served.standIn.requests[i]?.tools.map((t) => t.name) ?? [];

describe.skipIf(NO_BROWSER !== undefined)('the Tools page', () => {
  it('switches a tool off, and the next request the model gets no longer offers it', async () => {
    const served = await suite.serve({
      script: [{ text: 'first answer' }, { text: 'second answer' }],
      providers: [demoProvider()],
    });
    const tab = await suite.tab();
    await startSession(tab, served.base, 'switches');
    await sendMessage(tab, 'one');
    await tab.locator('.msg.assistant').filter({ hasText: 'first answer' }).waitFor();
    expect(offered(served, 0)).toContain('lookup_weather');

    await tab.getByRole('link', { name: 'Tools', exact: true }).click();
    const weather = tab.getByRole('switch', { name: 'Use lookup_weather' });
    await expect(weather.isChecked()).resolves.toBe(true);
    await weather.press('Space');
    await tab
      .locator('li.tool.off')
      .filter({ has: tab.getByRole('heading', { name: 'lookup_weather' }) })
      .waitFor();

    await screenshot(tab, 'tools');
    await tab.setViewportSize({ width: 375, height: 740 });
    await screenshot(tab, 'tools-phone');
    expect(await tab.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await tab.goBack();
    await sendMessage(tab, 'two');
    await tab.locator('.msg.assistant').filter({ hasText: 'second answer' }).waitFor();
    expect(offered(served, 1)).not.toContain('lookup_weather');
    expect(offered(served, 1)).toContain('send_email');
  });
});

describe.skipIf(NO_BROWSER !== undefined)('the Tools page and the owner’s policy', () => {
  it('shows a tool the config denies as set by the config, and lets a quarantined tool try again', async () => {
    const served = await suite.serve({
      script: [{ text: 'went on without it' }],
      providers: [demoProvider()],
      denyList: [{ tool: 'archive_mail', reason: 'mail stays' }],
    });
    served.standIn.rejectTool('lookup_weather');
    const tab = await suite.tab();
    await startSession(tab, served.base, 'policy');
    await sendMessage(tab, 'one');
    await tab.locator('.msg.assistant').filter({ hasText: 'went on without it' }).waitFor();
    await expect(tab.locator('.notice.error').first().textContent()).resolves.toContain('lookup_weather');

    await tab.getByRole('link', { name: 'Tools', exact: true }).click();
    const row = (name: string) =>
      tab.locator('li.tool').filter({ has: tab.getByRole('heading', { name, exact: true }) });
    await row('archive_mail').getByText('Off: denied by the config (denyList)').waitFor();
    expect(await tab.getByRole('switch', { name: 'Use archive_mail' }).count()).toBe(0);
    const quarantined = row('lookup_weather').locator('.quarantine');
    expect(served.standIn.requests[0]?.outcome.kind).toBe('rejected');
    await expect(quarantined.textContent()).resolves.toContain(
      'refused it, saying: “openai-compatible answered HTTP 400',
    );
    await screenshot(tab, 'tools-policy');

    served.standIn.reset();
    served.standIn.push({ text: 'weather is back' });
    await quarantined.getByRole('button', { name: 'Try lookup_weather again' }).click();
    await quarantined.waitFor({ state: 'detached' });
    await expect(tab.getByRole('switch', { name: 'Use lookup_weather' }).isChecked()).resolves.toBe(true);
    await tab.goBack();
    await sendMessage(tab, 'two');
    await tab.locator('.msg.assistant').filter({ hasText: 'weather is back' }).waitFor();
    expect(offered(served, 0)).toContain('lookup_weather');
    expect(offered(served, 0)).not.toContain('archive_mail');
  });
});
