import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRuntime } from './runtime.bench.js';
import { percentile } from './stats.js';
import { bareSide } from './turn-bare.js';
import { ASKED, callPath, startLoopbackProcess } from './turn-loopback.js';
import { CALL_ARGUMENTS, type TurnSide, targetOf } from './turn-tools.js';
import { toolseamSide } from './turn-toolseam.js';

// One session of many turns on a real SQLite file, printing what a turn costs early and late:
// `node dist/bench/long-session.js [turns]` (default 300) runs the runtime alone on the instant model;
// with `--wire` it runs toolseam on the OpenAI-compatible provider and the bare `openai` SDK side by side
// against the loopback (as `npm run bench -- turn` does, sides alternating every 10 turns), and prints
// how much toolseam's cost over the bare SDK's grows from the first turns to the last.
const args = process.argv.slice(2);
const wire = args.includes('--wire');
const TURNS = Number(args.find((a) => a !== '--wire') ?? 300);
const dir = mkdtempSync(join(tmpdir(), 'toolseam-long-'));

interface Cost {
  readonly wall: number;
  readonly cpu: number;
}

async function timed(run: () => Promise<unknown>): Promise<Cost> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await run();
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

// The machine may be shared: the least and the lower quartile of a window are the runtime's own cost.
const QUANTILES = [
  ['min', 0],
  ['p25', 0.25],
  ['median', 0.5],
] as const;
const summary = (costs: readonly Cost[]): string =>
  (['wall', 'cpu'] as const)
    .map((k) => {
      const v = costs.map((c) => c[k]);
      return `${k} ${QUANTILES.map(([name, q]) => `${name} ${percentile(v, q).toFixed(2)}`).join(' ')} ms`;
    })
    .join('; ');

async function instantModel(): Promise<void> {
  const runtime = benchRuntime(50, dir);
  const turn = (session: string, text: string) =>
    timed(async () => {
      for await (const _ of await (await runtime.session(session)).send(text)) {
        // drain
      }
    });
  const turns: Cost[] = [];
  for (let i = 0; i < TURNS; i += 1) turns.push(await turn('long', `please update the parcel record ${i}`));
  // First turns of new sessions in the same, warm process: turn 1 without the process's start-up.
  const firsts: Cost[] = [];
  for (let i = 0; i < 20; i += 1) firsts.push(await turn(`fresh-${i}`, 'please update the parcel record'));
  await runtime.close();
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
}

/** toolseam's cost over the bare SDK's in `early` and `late` turns, by each quantile of wall and CPU time. */
function overheadGrowth(sides: Record<'bare' | 'toolseam', Cost[]>, window: number): string {
  const lines: string[] = [];
  for (const k of ['wall', 'cpu'] as const) {
    for (const [name, q] of QUANTILES) {
      const at = (s: 'bare' | 'toolseam', late: boolean) =>
        percentile(
          (late ? sides[s].slice(-window) : sides[s].slice(0, window)).map((c) => c[k]),
          q,
        );
      const early = at('toolseam', false) - at('bare', false);
      const late = at('toolseam', true) - at('bare', true);
      lines.push(
        `${k} ${name}: toolseam − bare ${early.toFixed(2)} ms early, ${late.toFixed(2)} ms late: grows ${(late - early).toFixed(2)} ms`,
      );
    }
  }
  return lines.join('\n');
}

async function onTheWire(): Promise<void> {
  const loopback = await startLoopbackProcess();
  const target = targetOf(48);
  const baseURL = `${loopback.url}${callPath(ASKED, CALL_ARGUMENTS)}`;
  const sides: Record<'bare' | 'toolseam', TurnSide> = {
    bare: bareSide(baseURL, 48),
    toolseam: await toolseamSide(baseURL, 48, dir),
  };
  const names = ['bare', 'toolseam'] as const;
  // Warmed in a long conversation of its own: the measured one's first turns then take a path already compiled.
  for (let i = 0; i < 6; i += 1) for (const s of names) await sides[s].turn(target.ask(i), 'warm-up');
  const costs: Record<'bare' | 'toolseam', Cost[]> = { bare: [], toolseam: [] };
  for (let block = 0; block < TURNS / 10; block += 1) {
    for (const s of block % 2 === 0 ? names : [...names].reverse()) {
      for (let i = 0; i < 10; i += 1)
        costs[s].push(await timed(() => sides[s].turn(target.ask(block * 10 + i), 'long')));
    }
  }
  await sides.toolseam.close();
  await loopback.close();
  const window = Math.min(30, Math.floor(TURNS / 3));
  for (const s of names) {
    console.log(`${s}, turns 1-${window}: ${summary(costs[s].slice(0, window))}`);
    console.log(`${s}, turns ${TURNS - window + 1}-${TURNS}: ${summary(costs[s].slice(-window))}`);
  }
  console.log(overheadGrowth(costs, window));
}

try {
  await (wire ? onTheWire() : instantModel());
} finally {
  rmSync(dir, { recursive: true, force: true });
}
