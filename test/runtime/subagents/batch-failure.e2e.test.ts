import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { enableSubagents } from '../../../src/runtime/subagents/index.js';
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

describe('a subagent_run call that fails inside toolseam', () => {
  it('closes its batch as failed and leaves no leaf running once the turn has ended', async () => {
    h = await startHarness({
      script: [
        {
          match: { lastUserIncludes: 'morning round' },
          toolCalls: [
            {
              name: 'subagent_run',
              arguments: {
                tasks: [contract(QUICK, 'Hello'), contract(SLOW, 'Tickets'), contract(LATER, 'Week')],
              },
            },
          ],
        },
        { when: fromLeaf(QUICK), text: 'said hello' },
        { when: fromLeaf(SLOW), delayMs: 1_500, text: '12 tickets' },
        { when: fromLeaf(LATER), text: 'a calm week' },
      ],
    });
    enableSubagents(h.runtime, { concurrency: 2 });
    // The store fails to record the first leaf's end, as a failing disk would.
    const db = new Database(h.dbPath);
    db.exec(`CREATE TRIGGER hello_fails BEFORE UPDATE OF status ON leaves
      WHEN NEW.status = 'done' AND OLD.title = 'Hello' BEGIN SELECT RAISE(ABORT, 'the disk gave up'); END`);
    db.close();

    const store = h.runtime.options.store;
    const events = await collect(h.runtime.session('parent').send('do the morning round'));
    expect(turnEnd(events)).toMatchObject({ status: 'failed', errorCode: 'internal' });
    expect(turnEnd(events).message).toContain('the disk gave up');

    const [batch] = store.listBatches({ parentSessionId: 'parent' });
    expect(batch?.status).toBe('failed');
    expect(batch?.leaves.map((l) => [l.title, l.status])).toEqual([
      ['Hello', 'failed'],
      ['Tickets', 'done'],
      ['Week', 'failed'],
    ]);
    expect(batch?.leaves[2]?.childSessionId).toBeUndefined();
    expect(store.listTurns({ status: ['running', 'waiting_approval'] })).toEqual([]);
  }, 20_000);
});
