import { afterEach, describe, expect, it } from 'vitest';
import { enableSubagents } from '../../../src/runtime/subagents/index.js';
import { demoProvider, type RunCounts } from '../../support/demo-tools.js';
import { callEnds, collect, type RuntimeHarness, startHarness } from '../../support/runtime-harness.js';
import { contract, fromLeaf } from './subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ARCHIVE = 'Archive mail number 7 from the inbox';
const SEND = 'Send the weekly report to Ann';
const WEATHER = 'Look up the weather in Paris for tomorrow';

describe('a leaf that ends without an answer', () => {
  it('tells the parent which of its tool calls had already run, so that work is not taken for undone', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      approvals: { policy: 'auto' },
      script: [
        {
          match: { lastUserIncludes: 'morning round' },
          toolCalls: [
            {
              name: 'subagent_run',
              arguments: {
                tasks: [
                  contract(ARCHIVE, 'Archive', { capability: 'mutating' }),
                  contract(SEND, 'Report', { capability: 'mutating' }),
                  contract(WEATHER, 'Weather'),
                ],
              },
            },
          ],
        },
        // Archive: the mail is archived, then its model fails.
        { when: fromLeaf(ARCHIVE), toolCalls: [{ name: 'archive_mail', arguments: { id: 7 } }] },
        { when: fromLeaf(ARCHIVE), error: { status: 500, message: 'the model is down' } },
        // Report: the mail is sent, then its time runs out.
        {
          when: fromLeaf(SEND),
          toolCalls: [{ name: 'send_email', arguments: { to: 'ann@example.com', body: 'the report' } }],
        },
        { when: fromLeaf(SEND), delayMs: 20_000, text: 'too late' },
        // Weather: fails before it runs anything.
        { when: fromLeaf(WEATHER), error: { status: 500, message: 'the model is down' } },
        { match: { lastUserIncludes: 'morning round' }, echo: 'lastToolResult' },
      ],
    });
    enableSubagents(h.runtime, { leafTimeoutMs: 3_000 });
    const events = await collect(await (await h.runtime.session('parent')).send('the morning round'));
    expect(counts.get('archive_mail')).toBe(1);
    expect(counts.get('send_email')).toBe(1);

    const text = callEnds(events)[0]?.content ?? '';
    const section = (n: number): string => text.split('\n## ')[n] ?? '';
    expect(section(1)).toMatch(/^1\. Archive: failed/);
    expect(section(1)).toMatch(/already ran.*archive_mail \{"id":7\}/);
    expect(section(2)).toMatch(/^2\. Report: timed out/);
    expect(section(2)).toMatch(/already ran.*send_email \{"to":"ann@example\.com","body":"the report"\}/);
    expect(section(3)).toMatch(/^3\. Weather: failed/);
    expect(section(3)).not.toContain('already ran');

    const [batch] = await h.runtime.options.store.listBatches();
    expect(batch?.leaves[0]?.errors[0]).toContain('the model is down');
  }, 30_000);

  it('says a leaf finished without a final answer, and what it ran, instead of showing a blank output', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      approvals: { policy: 'auto' },
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
        // Archive: the mail is archived, then its model ends the turn without a word.
        { when: fromLeaf(ARCHIVE), toolCalls: [{ name: 'archive_mail', arguments: { id: 7 } }] },
        { when: fromLeaf(ARCHIVE), text: '' },
        { when: fromLeaf(WEATHER), text: 'Sunny in Paris tomorrow.' },
        { match: { lastUserIncludes: 'morning round' }, echo: 'lastToolResult' },
      ],
    });
    enableSubagents(h.runtime);
    const events = await collect(await (await h.runtime.session('parent')).send('the morning round'));
    expect(counts.get('archive_mail')).toBe(1);

    const text = callEnds(events)[0]?.content ?? '';
    const [archive, weather] = text.split('\n## ').slice(1);
    expect(archive).toMatch(/^1\. Archive: done\n/);
    expect(archive).not.toContain('Output');
    expect(archive).toContain('without a final answer');
    expect(archive).toMatch(/already ran.*archive_mail \{"id":7\}/);
    expect(weather).toContain('Sunny in Paris tomorrow.');

    const [batch] = await h.runtime.options.store.listBatches();
    expect(batch?.leaves[0]).toMatchObject({ status: 'done', output: undefined });
  });
});
