import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRuntime } from './runtime.bench.js';
import { percentile } from './stats.js';

// One session of many turns on a real SQLite file with the instant model, printing what a turn costs
// early and late: `npx tsx bench/long-session.ts [turns]` (default 300).
const TURNS = Number(process.argv[2] ?? 300);
const dir = mkdtempSync(join(tmpdir(), 'toolseam-long-'));
const runtime = benchRuntime(50, dir);

interface Cost {
  readonly wall: number;
  readonly cpu: number;
}

async function timedTurn(session: string, text: string): Promise<Cost> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for await (const _ of await (await runtime.session(session)).send(text)) {
    // drain
  }
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

// The machine may be shared: the least and the lower quartile of a window are the runtime's own cost.
const summary = (costs: readonly Cost[]): string =>
  (['wall', 'cpu'] as const)
    .map((k) => {
      const v = costs.map((c) => c[k]);
      return `${k} min ${percentile(v, 0).toFixed(2)} p25 ${percentile(v, 0.25).toFixed(2)} median ${percentile(v, 0.5).toFixed(2)} ms`;
    })
    .join('; ');

const turns: Cost[] = [];
for (let i = 0; i < TURNS; i += 1)
  turns.push(await timedTurn('long', `please update the parcel record ${i}`));
// First turns of new sessions in the same, warm process: turn 1 without the process's start-up.
const firsts: Cost[] = [];
for (let i = 0; i < 20; i += 1) firsts.push(await timedTurn(`fresh-${i}`, 'please update the parcel record'));
await runtime.close();
rmSync(dir, { recursive: true, force: true });

const show = (costs: readonly Cost[]): string => costs.map((c) => c.wall.toFixed(1)).join(' ');
console.log(`wall turns 1-10: ${show(turns.slice(0, 10))}`);
console.log(`wall turns ${TURNS - 9}-${TURNS}: ${show(turns.slice(-10))}`);
for (const [a, b] of [
  [1, 21],
  [100, 120],
  [200, 220],
  [TURNS - 20, TURNS],
] as const) {
  console.log(`turns ${a + 1}-${b}: ${summary(turns.slice(a, b))}`);
}
console.log(`turn 1 of 20 new sessions (warm): ${summary(firsts)}`);
