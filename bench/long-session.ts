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
const at = (a: number[], q: number): number =>
  [...a].sort((x, y) => x - y)[Math.floor((a.length - 1) * q)] ?? Number.NaN;
const show = (a: number[]): string => a.map((t) => t.toFixed(1)).join(' ');
console.log(`wall turns 1-10:   ${show(wall.slice(0, 10))}`);
console.log(`wall turns ${TURNS - 9}-${TURNS}: ${show(wall.slice(-10))}`);
console.log(`cpu  turns 1-10:   ${show(cpu.slice(0, 10))}`);
console.log(`cpu  turns ${TURNS - 9}-${TURNS}: ${show(cpu.slice(-10))}`);
// The machine may be shared: the least and the lower quartile of a window are the runtime's own cost.
for (const [a, b] of [
  [1, 21],
  [100, 120],
  [200, 220],
  [TURNS - 20, TURNS],
] as const) {
  const w = wall.slice(a, b);
  const c = cpu.slice(a, b);
  console.log(
    `turns ${a + 1}-${b}: wall min ${at(w, 0).toFixed(2)} p25 ${at(w, 0.25).toFixed(2)} median ${at(w, 0.5).toFixed(2)} ms; cpu min ${at(c, 0).toFixed(2)} p25 ${at(c, 0.25).toFixed(2)} median ${at(c, 0.5).toFixed(2)} ms`,
  );
}
