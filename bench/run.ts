import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machineReadings, runYardstickMs } from './yardstick.js';

/** One figure a benchmark reports. */
export interface BenchFigure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The target it is held to, in words (e.g. "< 50 ms"), when the issue sets one. */
  readonly target?: string;
  /** Whether the figure meets its target (undefined when there is none). */
  readonly ok?: boolean;
}

/** A benchmark module exports `bench`, returning its figures. */
export type Bench = () => Promise<BenchFigure[]>;

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
process.stdout.write(
  `machine yardstick: ${runYardstickMs().toFixed(0)} ms for a fixed integer loop (the lower, the faster; compare figures across days by it)\n`,
);
const readings = machineReadings();
process.stdout.write(
  `  one system call (fstat): ${readings.syscallUs.toFixed(2)} µs; one read missing every cache (64 MB): ${readings.memoryNs.toFixed(0)} ns\n`,
);
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { bench: Bench };
  process.stdout.write(`\n# ${file.replace(/\.bench\.js$/, '')}\n`);
  for (const f of await mod.bench()) {
    const mark = f.ok === undefined ? '' : f.ok ? '  ok' : '  MISSED';
    if (f.ok === false) failed += 1;
    const target = f.target ? `  (target ${f.target})` : '';
    process.stdout.write(
      `${f.name.padEnd(60)} ${formatValue(f.value).padStart(12)} ${f.unit}${target}${mark}\n`,
    );
  }
}
process.stdout.write(
  `\n${failed === 0 ? 'every figure meets its target' : `${failed} figure(s) missed their target`}\n`,
);

function formatValue(v: number): string {
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return v >= 100 ? Math.round(v).toLocaleString('en-US') : v >= 1 ? v.toFixed(2) : v.toPrecision(3);
}
