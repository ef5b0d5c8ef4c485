import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalSignals } from '../../../src/core/local-signals.js';
import { PgSignals } from '../../../src/store/pg-signals/pg-signals.js';

const URL = process.env.TOOLSEAM_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

const opened: PgSignals[] = [];

/** A PgSignals on the test database; fails (never skips) saying how to start PostgreSQL. */
async function connect(applicationName = 'toolseam-signals-test'): Promise<PgSignals> {
  try {
    const signals = await PgSignals.connect({ connectionString: URL, maxRetryMs: 200, applicationName });
    opened.push(signals);
    return signals;
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${URL} (${(error as Error).message}): start it (e.g. \`pg_ctlcluster 16 main start\`, trust auth for user postgres, a database named test) or set TOOLSEAM_TEST_PG.`,
    );
  }
}

/** Resolves with the next call of a subscription to `topic`. */
function next(signals: { subscribe: LocalSignals['subscribe'] }, topic: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const leave = signals.subscribe(topic, (_t, payload) => {
      leave();
      resolve(payload);
    });
  });
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

describe('LocalSignals', () => {
  it('wakes the subscribers of a topic, only them, until they leave', async () => {
    const signals = new LocalSignals();
    const heard: string[] = [];
    const leave = signals.subscribe('a', (topic, payload) => heard.push(`${topic}=${payload}`));
    signals.subscribe('b', (topic) => heard.push(topic));
    await signals.publish('a', 'one');
    await new Promise((r) => setImmediate(r));
    leave();
    await signals.publish('a', 'two');
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual(['a=one']);
    expect(signals.reachesOtherProcesses).toBe(false);
  });

  it('keeps waking the others when one listener throws', async () => {
    const signals = new LocalSignals();
    signals.subscribe('a', () => {
      throw new Error('mine');
    });
    const woke = next(signals, 'a');
    await signals.publish('a', 'x');
    await expect(woke).resolves.toBe('x');
  });
});

describe('PgSignals (LISTEN/NOTIFY on the test database)', () => {
  it('carries a topic and its hint from one connection to another', async () => {
    const [a, b] = [await connect(), await connect()];
    const onB = next(b, 'approval:x1');
    const onA = next(a, 'approval:x1');
    await a.publish('approval:x1', 'approved');
    await expect(onB).resolves.toBe('approved');
    // The publisher's own subscribers wake too, once, without the database's echo.
    await expect(onA).resolves.toBe('approved');
    expect(a.reachesOtherProcesses).toBe(true);
  });

  it('does not wake subscribers of another topic', async () => {
    const [a, b] = [await connect(), await connect()];
    const heard: string[] = [];
    b.subscribe('events:s1', (topic) => heard.push(topic));
    const later = next(b, 'events:s2');
    await a.publish('events:s2');
    await a.publish('events:s2');
    await later;
    expect(heard).toEqual([]);
  });

  it('connects again after its connection is cut, waking every subscriber once', async () => {
    const cut = `toolseam-signals-cut-${process.pid}`;
    const [a, b] = [await connect(), await connect(cut)];
    const woken = next(b, 'events:cut');
    const admin = new pg.Client({ connectionString: URL });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [cut],
      );
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    // The wake after reconnecting carries no hint.
    await expect(woken).resolves.toBeUndefined();
    const after = next(b, 'events:cut');
    // a may still be reconnecting: publish until b hears it (each publish either reaches b or is logged).
    let heard: string | undefined;
    void after.then((p) => {
      heard = p ?? 'none';
    });
    for (let i = 0; i < 100 && heard === undefined; i++) {
      await a.publish('events:cut', 'again');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(heard).toBe('again');
  });
});
