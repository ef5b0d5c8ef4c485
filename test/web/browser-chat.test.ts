import { describe, expect, it } from 'vitest';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import {
  browserSuite,
  NO_BROWSER,
  pageErrors,
  screenshot,
  sendMessage,
  startSession,
} from './page-harness.js';

const suite = browserSuite();

const mail = { name: 'send_email', arguments: { to: 'ana@example.com', body: 'See you at 5.' } };

describe.skipIf(NO_BROWSER !== undefined)('the page in Chromium, against the real server', () => {
  it('streams the answer into the chat while the turn runs (Enter sends, Shift+Enter is a new line)', async () => {
    const served = await suite.serve({
      script: [{ text: 'Streaming words arrive a few letters at a time.', chunkSize: 4, cutOff: 'hold' }],
    });
    const tab = await suite.tab();
    const errors = pageErrors(tab);
    await startSession(tab, served.base, 'streaming');
    const box = tab.getByLabel('Message', { exact: true });
    await box.fill('first line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    expect(await box.inputValue()).toBe('first line\nsecond line');
    await box.press('Enter');
    await tab.locator('.msg.user').filter({ hasText: 'second line' }).waitFor();
    const answer = tab.locator('.msg.assistant');
    await answer.filter({ hasText: 'Streaming words arrive a few letters at a time.' }).waitFor();
    // The model holds its answer open: the text came while the turn still runs.
    await expect(tab.getByText('A turn is running').isVisible()).resolves.toBe(true);
    await tab.getByRole('button', { name: 'Stop' }).click();
    await tab.getByText('Ready', { exact: true }).waitFor();
    expect(served.standIn.requests[0]?.lastUserMessage).toBe('first line\nsecond line');
    expect(errors).toEqual([]);
  });

  it('answers an approval on the page with the keyboard, and the tool runs once', async () => {
    const counts: RunCounts = new Map();
    const served = await suite.serve({
      script: [{ toolCalls: [mail] }, { echo: 'lastToolResult' }],
      providers: [demoProvider(counts)],
    });
    // A phone's width: everything fits without scrolling sideways.
    const tab = await suite.tab({ width: 375, height: 740 });
    const errors = pageErrors(tab);
    await startSession(tab, served.base, 'approve');
    await sendMessage(tab, 'tell Ana about five');
    const card = tab.locator('.approval');
    await card.waitFor();
    await screenshot(tab, 'chat-approval-phone');
    expect(await tab.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await expect(card.textContent()).resolves.toContain('ana@example.com');
    await expect(card.locator('.meaning').textContent()).resolves.toContain('send_email');
    const approve = card.getByRole('button', { name: 'Approve once' });
    await approve.focus();
    // A visible focus ring, and a real button: Enter presses it.
    const outline = await approve.evaluate('(button) => getComputedStyle(button).outlineStyle');
    expect(outline).not.toBe('none');
    await tab.keyboard.press('Enter');
    await tab.locator('.msg.assistant').filter({ hasText: 'sent to ana@example.com' }).waitFor();
    await card.waitFor({ state: 'detached' });
    expect(counts.get('send_email')).toBe(1);
    expect(served.standIn.requests).toHaveLength(2);
    expect(errors).toEqual([]);
  });

  it('denies with a reason, and the model is told it', async () => {
    const counts: RunCounts = new Map();
    const served = await suite.serve({
      script: [{ toolCalls: [mail] }, { text: 'Understood, I will not send it.' }],
      providers: [demoProvider(counts)],
    });
    const tab = await suite.tab();
    await startSession(tab, served.base, 'deny');
    await sendMessage(tab, 'tell Ana about five');
    const card = tab.locator('.approval');
    await card.getByLabel('Reason for denying (the model is told)').fill('Ana is on holiday this week');
    await card.getByRole('button', { name: 'Deny' }).click();
    await tab.locator('.msg.assistant').filter({ hasText: 'Understood, I will not send it.' }).waitFor();
    expect(counts.get('send_email')).toBeUndefined();
    expect(served.standIn.requests[1]?.lastToolResult?.content).toContain('Ana is on holiday this week');
    await expect(tab.locator('.call').first().textContent()).resolves.toContain('send_email');
  });
});
