import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../src/core/events.js';
import { enableSubagents } from '../../../src/runtime/subagents/index.js';
import type { ScriptTurn } from '../../../src/testing/index.js';
import { demoProvider, type RunCounts } from '../../support/demo-tools.js';
import { type RuntimeHarness, startHarness, turnEnd } from '../../support/runtime-harness.js';
import { contract, fromLeaf, leafStates } from './subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ARCHIVE = 'Archive mail number 7 from the inbox';
const WEATHER = 'Look up the weather in Paris for tomorrow';
/** The leaf time limit of these tests. */
const LIMIT_MS = 1_000;

/**
 * A batch of two leaves on a runtime with the leaf time limit `LIMIT_MS`: Archive asks to archive mail 7
 * (a call that needs a person), then answers with `archived`; Weather answers at once.
 */
async function startBatch(archived: ScriptTurn, counts: RunCounts): Promise<RuntimeHarness> {
  const tasks = [contract(ARCHIVE, 'Archive', { capability: 'mutating' }), contract(WEATHER, 'Weather')];
  const parent = { lastUserIncludes: 'morning round' };
  const harness = await startHarness({
    providers: [demoProvider(counts)],
    script: [
      { match: parent, toolCalls: [{ name: 'subagent_run', arguments: { tasks } }] },
      { when: fromLeaf(ARCHIVE), toolCalls: [{ name: 'archive_mail', arguments: { id: 7 } }] },
      { when: fromLeaf(ARCHIVE), ...archived },
      { when: fromLeaf(WEATHER), text: 'Sunny in Paris tomorrow.' },
      { match: parent, echo: 'lastToolResult' },
    ],
  });
  enableSubagents(harness.runtime, { leafTimeoutMs: LIMIT_MS });
  return harness;
}

/** Runs the parent turn, approving each request after `answerAfterMs`; its events, and the leaves' statuses. */
async function runBatch(harness: RuntimeHarness, answerAfterMs: number) {
  const runtime = harness.runtime;
  const events: RuntimeEvent[] = [];
  for await (const event of await (await runtime.session('parent')).send('do the morning round')) {
    events.push(event);
    if (event.type !== 'approval-request') continue;
    if (answerAfterMs > 0) await sleep(answerAfterMs);
    await runtime.respond(event.request.id, { kind: 'approve' }, { digest: event.request.digest });
  }
  const [batch] = await runtime.options.store.listBatches();
  return { events, leaves: batch?.leaves ?? [] };
}

describe("a leaf's time limit while a person is asked about one of its calls", () => {
  it('is paused: an answer that comes after the limit still lets the leaf finish its work', async () => {
    const counts: RunCounts = new Map();
    h = await startBatch({ text: 'Mail 7 is archived.' }, counts);
    // a person who takes longer to answer than the leaf may run
    const { events, leaves } = await runBatch(h, LIMIT_MS + 300);
    expect(turnEnd(events).status).toBe('done');
    expect(counts.get('archive_mail')).toBe(1);
    expect(leafStates(events, 'Archive').at(-1)).toBe('done');
    expect(leaves.map((l) => l.status)).toEqual(['done', 'done']);
    expect(leaves[0]?.output).toBe('Mail 7 is archived.');
  });

  it('runs again once the person has answered: a leaf still working after that is stopped', async () => {
    const counts: RunCounts = new Map();
    h = await startBatch({ delayMs: 20_000, text: 'too late' }, counts);
    const { leaves } = await runBatch(h, 0);
    expect(counts.get('archive_mail')).toBe(1);
    expect(leaves.map((l) => l.status)).toEqual(['timed_out', 'done']);
    expect(leaves[0]?.errors[0]).toContain(
      "time limit of 1 second (waits for a person's answer not counted)",
    );
  }, 15_000);
});
