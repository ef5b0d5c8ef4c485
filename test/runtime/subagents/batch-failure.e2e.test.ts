import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { enableSubagents } from '../../../src/runtime/subagents/index.js';
import type { ScriptToolCall, ScriptTurn } from '../../../src/testing/index.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../../support/runtime-harness.js';
import { contract, fromLeaf } from './subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const QUICK = 'Say hello to the team';
const SLOW = 'Count the open tickets';
const LATER = 'Summarise the week';

/** What each leaf's model answers (Tickets slowly, so it still runs when Hello ends). */
const LEAF_ANSWERS: ScriptTurn[] = [
  { when: fromLeaf(QUICK), text: 'said hello' },
  { when: fromLeaf(SLOW), delayMs: 1_500, text: '12 tickets' },
  { when: fromLeaf(LATER), text: 'a calm week' },
];

/** A parent asking for `calls`, subagents on two slots, and a store that cannot record Hello's end (a failing disk). */
async function failingHello(calls: ScriptToolCall[]): Promise<RuntimeHarness> {
  const harness = await startHarness({
    script: [{ match: { lastUserIncludes: 'morning round' }, toolCalls: calls }, ...LEAF_ANSWERS],
  });
  enableSubagents(harness.runtime, { concurrency: 2 });
  const db = new Database(harness.dbPath);
  db.exec(`CREATE TRIGGER hello_fails BEFORE UPDATE OF status ON leaves
    WHEN NEW.status = 'done' AND OLD.title = 'Hello' BEGIN SELECT RAISE(ABORT, 'the disk gave up'); END`);
  db.close();
  return harness;
}

describe('a subagent_run call that fails inside toolseam', () => {
  it('closes its batch as failed and leaves no leaf running once the turn has ended', async () => {
    h = await failingHello([
      {
        name: 'subagent_run',
        arguments: { tasks: [contract(QUICK, 'Hello'), contract(SLOW, 'Tickets'), contract(LATER, 'Week')] },
      },
    ]);
    const store = h.runtime.options.store;
    const events = await collect(await (await h.runtime.session('parent')).send('do the morning round'));
    expect(turnEnd(events)).toMatchObject({ status: 'failed', errorCode: 'internal' });
    expect(turnEnd(events).message).toContain('the disk gave up');

    const [batch] = await store.listBatches({ parentSessionId: 'parent' });
    expect(batch?.status).toBe('failed');
    expect(batch?.leaves.map((l) => [l.title, l.status])).toEqual([
      ['Hello', 'failed'],
      ['Tickets', 'done'],
      ['Week', 'failed'],
    ]);
    expect(batch?.leaves[2]?.childSessionId).toBeUndefined();
    expect(await store.listTurns({ status: ['running', 'waiting_approval'] })).toEqual([]);
  }, 20_000);

  it('starts no leaf that was still waiting for a slot when its batch failed', async () => {
    // The first call's leaf holds one of the two slots, so the second batch's last leaf waits.
    h = await failingHello([
      { name: 'subagent_run', arguments: { tasks: [contract(SLOW, 'Tickets')] } },
      { name: 'subagent_run', arguments: { tasks: [contract(QUICK, 'Hello'), contract(LATER, 'Week')] } },
    ]);
    const store = h.runtime.options.store;
    await collect(await (await h.runtime.session('parent')).send('do the morning round'));
    const broken = (await store.listBatches({ parentSessionId: 'parent' })).find(
      (b) => b.leaves.length === 2,
    );
    expect(broken?.status).toBe('failed');
    expect(broken?.leaves.map((l) => [l.title, l.status])).toEqual([
      ['Hello', 'failed'],
      ['Week', 'failed'],
    ]);
    expect(broken?.leaves[1]?.childSessionId).toBeUndefined();
  }, 20_000);
});
