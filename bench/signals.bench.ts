import { PgSignals } from '../src/store/pg-signals/pg-signals.js';
import type { BenchFigure } from './run.js';
import { percentile } from './stats.js';

const URL = process.env.TOOLSEAM_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROUNDS = 300;

/**
 * How long a signal takes from one process's `publish` to another connection's listener, over
 * PostgreSQL LISTEN/NOTIFY on loopback: two PgSignals (two connections, as two serve processes have),
 * one signal at a time.
 */
export async function bench(): Promise<BenchFigure[]> {
  const [a, b] = await Promise.all([
    PgSignals.connect({ connectionString: URL }),
    PgSignals.connect({ connectionString: URL }),
  ]);
  try {
    const samples: number[] = [];
    for (let i = -10; i < ROUNDS; i++) {
      const topic = `bench:${i}`;
      const heard = new Promise<void>((resolve) => {
        const leave = b.subscribe(topic, () => {
          leave();
          resolve();
        });
      });
      const start = process.hrtime.bigint();
      await a.publish(topic);
      await heard;
      if (i >= 0) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return [
      { name: 'signal publish → other connection woken, p50', value: percentile(samples, 0.5), unit: 'ms' },
      { name: 'signal publish → other connection woken, p95', value: percentile(samples, 0.95), unit: 'ms' },
    ];
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}
