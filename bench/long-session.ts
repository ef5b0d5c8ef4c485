import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRuntime } from './runtime.bench.js';

// One session, many turns, on a real SQLite file with the instant model: per-turn wall and CPU time.
const TURNS = Number(process.argv[2] ?? 300);
const dir = mkdtempSync(join(tmpdir(), 'toolseam-long-'));
const runtime = benchRuntime(50, dir);
const wall: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < TURNS; i += 1) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for await (const _ of await (await runtime.session('long')).send(`please update the parcel record ${i}`)) {
    // drain
  }
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
  wall.push(performance.now() - t0);
}
await runtime.close();
rmSync(dir, { recursive: true, force: true });
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? Number.NaN;
const show = (a: number[]): string => a.map((t) => t.toFixed(1)).join(' ');
console.log(`wall turns 1-10:   ${show(wall.slice(0, 10))}`);
console.log(`wall turns ${TURNS - 9}-${TURNS}: ${show(wall.slice(-10))}`);
console.log(`cpu  turns 1-10:   ${show(cpu.slice(0, 10))}`);
console.log(`cpu  turns ${TURNS - 9}-${TURNS}: ${show(cpu.slice(-10))}`);
for (const [a, b] of [
  [1, 10],
  [10, 20],
  [100, 110],
  [200, 210],
  [TURNS - 10, TURNS],
] as const) {
  console.log(
    `turns ${a + 1}-${b}: median wall ${median(wall.slice(a, b)).toFixed(2)} ms, median cpu ${median(cpu.slice(a, b)).toFixed(2)} ms`,
  );
}
