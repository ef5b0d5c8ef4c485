import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { browserSuite, NO_BROWSER, screenshot, sendMessage, startSession } from './page-harness.js';

const suite = browserSuite();

// Each payload would set window.__pwned if the page ever let it become markup or a link.
const markup = (n: number) =>
  `<img src=x onerror="window.__pwned=${n}"> <a href="javascript:window.__pwned=${n + 1}">open</a> ` +
  `<script>window.__pwned=${n + 2}</script> <svg onload="window.__pwned=${n + 3}"></svg>`;
const bidi = 'report\u202Efdp.exe and \u2067isolated\u2069 and \u200Fmark';

const hostileTools = () =>
  inProcessProvider({
    name: 'hostile',
    group: { key: 'hostile', own: false, purpose: '' },
    tools: [
      defineTool({
        name: 'fetch_page',
        description: `Fetches a page. ${markup(10)} ${bidi}`,
        risk: 'safe',
        fields: { url: field.string({ maxLength: 200 }) },
        handler: () => `Page body: ${markup(20)} ${bidi}`,
      }),
      defineTool({
        name: 'post_note',
        description: `Posts a note. ${markup(50)}`,
        risk: 'caution',
        fields: { note: field.string({ maxLength: 2000 }) },
        handler: () => 'posted',
      }),
    ],
  });

/** Asserts nothing in `tab` ran, became an element, or kept a hidden bidi control. */
async function expectInert(tab: Page): Promise<void> {
  expect(await tab.evaluate('window.__pwned')).toBeUndefined();
  expect(await tab.locator('main img, main script, main svg, main iframe').count()).toBe(0);
  expect(await tab.locator('a[href^="javascript:" i]').count()).toBe(0);
  const text = (await tab.locator('main').textContent()) ?? '';
  expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F]/);
  expect(text).toContain('report⟨U+202E⟩fdp.exe');
  expect(text).toContain('⟨U+2067⟩isolated⟨U+2069⟩');
  expect(text).toContain('<img src=x onerror=');
}

describe.skipIf(NO_BROWSER !== undefined)('hostile text on the page', () => {
  it('stays text in model text, tool results, approval arguments and tool descriptions: nothing runs, bidi shown', async () => {
    const served = await suite.serve({
      script: [
        {
          text: `Here you go: ${markup(30)} ${bidi}`,
          toolCalls: [{ name: 'fetch_page', arguments: { url: `javascript:alert(1) ${bidi}` } }],
        },
        { toolCalls: [{ name: 'post_note', arguments: { note: `${markup(60)} ${bidi}` } }] },
        { text: `Done. ${markup(40)} ${bidi}` },
      ],
      providers: [hostileTools()],
    });
    const tab = await suite.tab();
    await startSession(tab, served.base, `title ${bidi}`);
    await sendMessage(tab, 'fetch it');
    // The approval card shows the arguments the model wrote.
    const card = tab.locator('.approval');
    await card.waitFor();
    await expectInert(tab);
    expect(await card.locator('.arguments').textContent()).toContain(
      '<img src=x onerror=\\"window.__pwned=60\\">',
    );
    await screenshot(tab, 'hostile-chat');
    await card.getByRole('button', { name: 'Deny' }).click();
    await tab.locator('.msg.assistant').filter({ hasText: 'Done.' }).waitFor();
    await tab.locator('.call').filter({ hasText: 'Page body:' }).waitFor();
    await expectInert(tab);

    await tab.getByRole('link', { name: 'Tools', exact: true }).click();
    await tab.getByRole('heading', { name: 'fetch_page' }).waitFor();
    await expectInert(tab);
    await screenshot(tab, 'hostile-tools');
  });
});
